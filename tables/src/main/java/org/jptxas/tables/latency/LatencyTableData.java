package org.jptxas.tables.latency;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The JSON shape of one per-SM latency table ({@code latency/smNN.json}). A table may {@code extends} another; its
 * pipes, classes and opcode rules then replace the parent's entries of the same name (see {@link LatencyTables}).
 *
 * @param sm               the table's name, e.g. {@code sm80}
 * @param extendsTable     the parent table's name, or {@code ""}
 * @param targets          the {@code -arch} names this table serves, e.g. {@code ["sm_80", "sm_86"]}
 * @param source           where the numbers come from
 * @param scoreboards      number of hardware dependency scoreboards (6 on sm_70+)
 * @param maxStall         largest stall count the control word holds (15)
 * @param scoreboardSetup  cycles between a variable-latency instruction's issue and the earliest instruction that can
 *                         wait on its scoreboard
 * @param paddingStall     largest stall ptxas puts on each instruction of a run that ends in padding (NOP or a
 *                         never-executed {@code @!UPT UIADD3}) before a consumer: it front-loads the wait there,
 *                         because one stall count cannot cover the gap
 * @param pipes            functional-unit pipes
 * @param classes          latency classes
 * @param opcodes          rules mapping a SASS mnemonic (plus modifiers) to a latency class
 */
public record LatencyTableData(
        String sm,
        @JsonProperty("extends") String extendsTable,
        List<String> targets,
        String source,
        int scoreboards,
        int maxStall,
        int scoreboardSetup,
        int paddingStall,
        List<Pipe> pipes,
        List<LatencyClassEntry> classes,
        List<OpcodeRule> opcodes,
        List<WideSplit> wideSplits) {

    /**
     * A functional-unit pipe.
     *
     * @param issueInterval cycles between two issues of the same warp to this pipe (its inverse throughput)
     * @param inOrder       its variable-latency results come back in issue order (ptxas covers several loads of one
     *                      pipe with the last one's scoreboard, and counts them with {@code DEPBAR.LE SBk, n})
     */
    public record Pipe(String name, int issueInterval, boolean inOrder, String description) {
        public Pipe {
            Objects.requireNonNull(name, "name");
            if (issueInterval < 1 || issueInterval > 64) {
                throw new IllegalArgumentException("pipe " + name + ": issueInterval " + issueInterval + " outside 1..64");
            }
        }
    }

    /**
     * A class whose 64-bit register operands are handled one 32-bit half at a time (Hopper's IMAD.WIDE): the low
     * half of its destination is ready early, the high half of a 64-bit source is read late.
     *
     * @param latencyClass     the class it refines
     * @param lowHalfLatency   read-after-write cycles of the destination's low register by reader group ({@code *} =
     *                         the class's own latency); the high register keeps the class's latency
     * @param highHalfReadLate cycles after issue at which the high register of a 64-bit source is read
     */
    public record WideSplit(String latencyClass, Map<String, Integer> lowHalfLatency, int highHalfReadLate,
                            String description) {
        public WideSplit {
            Objects.requireNonNull(latencyClass, "latencyClass");
            lowHalfLatency = Map.copyOf(lowHalfLatency);
            if (highHalfReadLate < 0 || highHalfReadLate > 15) {
                throw new IllegalArgumentException("wide split " + latencyClass + ": highHalfReadLate " + highHalfReadLate);
            }
        }
    }

    /**
     * A latency class: how an instruction of this class produces and consumes registers.
     *
     * @param name            class name, referenced by opcode rules
     * @param pipe            the pipe it issues to
     * @param variable        variable latency: consumers learn of completion through a scoreboard, not a stall count
     * @param reader          the reader group this class belongs to when it reads a register (a column key of
     *                        {@code latency})
     * @param latency         read-after-write cycles by destination register file ({@code R}, {@code P}, {@code UR},
     *                        {@code UP}) and reader group ({@code *} = any other group); for a variable class these
     *                        are the cycles a consumer needs after the scoreboard clears (usually none); a
     *                        {@code min:<group>} column gives the shortest distance ptxas itself uses where it usually
     *                        schedules further apart (code generation plans with the usual value, the hazard checker
     *                        holds code to the minimum)
     * @param war             cycles a later writer of a register this class reads must stay behind it
     * @param waw             cycles a later writer of a register this class writes must stay behind it
     * @param readsLate       reads its sources after issue (stores, atomics): a later overwrite needs a read scoreboard
     * @param drainsWrites    issues only once every outstanding fixed-latency register write is complete, as read by
     *                        reader group {@code drain} (ptxas does this before CALL and BSYNC: the code after them
     *                        may read any register); a writer class without a {@code drain} column imposes nothing
     * @param alsoPipes       further pipes the class occupies for its issue cycles (Ampere's BAR.SYNC: the branch
     *                        unit and the memory queue)
     * @param drainsOnExit    the instruction after this one waits for every outstanding fixed-latency write, by the
     *                        same {@code drain} column (Hopper's BRA: its stall, not the issue, covers them)
     * @param maxLatency      for a variable class, cycles after issue by which ptxas counts on the result being written:
     *                        a consumer at least that far away needs no scoreboard (ptxas then sets none); 0 = no bound
     * @param minStall        smallest stall count ptxas gives this class (e.g. 5 on branches)
     * @param yieldMaxStall   largest stall count with which ptxas still sets bit 109 on this class
     * @param issueCycles     cycles this class keeps its pipe busy, when longer than the pipe's issue interval (0 = the
     *                        interval; IMAD.WIDE takes two FMA issue slots)
     * @param issueGap        smallest distance in cycles from the previous instruction's issue (S2R and CALL: 2)
     * @param scoreboardOrder preferred write-scoreboard indices, first free one wins
     */
    public record LatencyClassEntry(
            String name,
            String pipe,
            List<String> alsoPipes,
            boolean variable,
            String reader,
            Map<String, Map<String, Integer>> latency,
            int war,
            int waw,
            boolean readsLate,
            boolean drainsWrites,
            boolean drainsOnExit,
            int maxLatency,
            int minStall,
            int yieldMaxStall,
            int issueCycles,
            int issueGap,
            List<Integer> scoreboardOrder,
            String description) {
        public LatencyClassEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(pipe, "pipe");
            Objects.requireNonNull(reader, "reader");
            latency = Map.copyOf(latency);
            scoreboardOrder = List.copyOf(scoreboardOrder);
            alsoPipes = List.copyOf(alsoPipes);
            for (String file : latency.keySet()) {
                if (!Set.of("R", "P", "UR", "UP").contains(file)) {
                    throw new IllegalArgumentException("class " + name + ": unknown register file '" + file + "' in latency");
                }
                latency.get(file).forEach((group, cycles) -> {
                    if (cycles < 0 || cycles > 64) {
                        throw new IllegalArgumentException("class " + name + ": latency " + file + "/" + group + " = " + cycles);
                    }
                });
            }
            if (war < 0 || waw < 0 || minStall < 0 || minStall > 15) {
                throw new IllegalArgumentException("class " + name + ": negative war/waw or minStall outside 0..15");
            }
        }
    }

    /**
     * Maps instructions to a class: the mnemonic must equal {@code mnemonic} and carry every modifier of
     * {@code modifiers}; the matching rule with the most modifiers wins.
     */
    public record OpcodeRule(String mnemonic, List<String> modifiers, String latencyClass) {
        public OpcodeRule {
            Objects.requireNonNull(mnemonic, "mnemonic");
            Objects.requireNonNull(latencyClass, "latencyClass");
            modifiers = List.copyOf(modifiers);
        }

        /** The key under which an overlay replaces a parent's rule. */
        public String key() {
            return modifiers.isEmpty() ? mnemonic : mnemonic + "." + String.join(".", modifiers);
        }
    }

    public LatencyTableData {
        Objects.requireNonNull(sm, "sm");
        Objects.requireNonNull(extendsTable, "extends");
        targets = List.copyOf(targets);
        pipes = List.copyOf(pipes);
        classes = List.copyOf(classes);
        opcodes = List.copyOf(opcodes);
        unique("pipe", pipes.stream().map(Pipe::name).toList());
        unique("class", classes.stream().map(LatencyClassEntry::name).toList());
        unique("opcode rule", opcodes.stream().map(OpcodeRule::key).toList());
    }

    private static void unique(String what, List<String> names) {
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (!seen.add(n)) {
                throw new IllegalArgumentException(what + " '" + n + "' given twice");
            }
        }
    }
}
