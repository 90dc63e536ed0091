package org.jptxas.scheduler.latency;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.tables.latency.LatencyTableData;

/**
 * A per-SM machine model for scheduling, built from a latency table: latency classes, pipes with their issue
 * interval, and dense read-after-write tables by (writer class, register file, reader group). Immutable and shared.
 */
public final class LatencyModel {
    /** Reader group used for a predicate read as an instruction's guard. */
    public static final String GUARD = "guard";
    /** Reader group used for any register read by a branch. */
    public static final String BRANCH = "branch";
    /**
     * Latency column read by a class that {@linkplain OpClass#drainsWrites() drains writes}: cycles from a write until
     * such an instruction may issue. Not a reader group (a missing entry means no constraint, not {@code *}).
     */
    public static final String DRAIN = "drain";


    private final LatencyTableData table;
    private final List<OpClass> classes = new ArrayList<>();
    private final Map<String, OpClass> byName = new HashMap<>();
    private final List<String> readerGroups = new ArrayList<>();
    private final int[] issueInterval;
    private final List<String> pipes = new ArrayList<>();
    private final List<PipeRole> pipeRoles = new ArrayList<>();
    /** raw[file][writer][readerGroup]; -1 where the table gives none (variable producers). */
    private final int[][][] raw;
    /**
     * required[file][writer][readerGroup]: the shortest distance ptxas itself uses, from a {@code min:<group>} column
     * where the usual distance ({@link #raw}) is longer; else as raw. The hazard checker holds code to this.
     */
    private final int[][][] required;
    /** Prefix of a latency column giving the required (shortest safe) distance for a reader group. */
    public static final String REQUIRED_PREFIX = "min:";
    /** drain[file][writer]: cycles until a draining instruction may issue after the write; -1: no constraint. */
    private final int[][] drain;
    /** Per class and reader group: cycles until the low register of a 64-bit result is readable (-1: as the whole). */
    private final int[][] lowHalfRaw;
    /** Per class: cycles after issue at which the high register of a 64-bit source is read. */
    private final int[] highHalfReadLate;
    private final Map<String, List<LatencyTableData.OpcodeRule>> rulesByMnemonic = new HashMap<>();

    private LatencyModel(LatencyTableData table) {
        this.table = table;
        for (LatencyTableData.Pipe p : table.pipes()) {
            pipes.add(p.name());
            pipeRoles.add(PipeRole.of(p.name()));
        }
        issueInterval = table.pipes().stream().mapToInt(LatencyTableData.Pipe::issueInterval).toArray();
        readerGroups.add("*");
        readerGroups.add(GUARD);
        readerGroups.add(BRANCH);
        for (LatencyTableData.LatencyClassEntry c : table.classes()) {
            if (!readerGroups.contains(c.reader())) {
                readerGroups.add(c.reader());
            }
        }
        for (LatencyTableData.LatencyClassEntry c : table.classes()) {
            OpClass oc = new OpClass(classes.size(), c.name(), pipes.indexOf(c.pipe()), readerGroups.indexOf(c.reader()),
                    c.variable(), c.readsLate(), c.drainsWrites(), c.drainsOnExit(), c.maxLatency(), c.war(), c.waw(), c.minStall(), c.yieldMaxStall(), c.issueCycles(), c.issueGap(),
                    c.scoreboardOrder().stream().mapToInt(Integer::intValue).toArray(),
                    c.alsoPipes().stream().mapToInt(p -> pipeIndex(p, c.name())).toArray());
            classes.add(oc);
            byName.put(c.name(), oc);
        }
        RegFile[] files = RegFile.values();
        raw = new int[files.length][classes.size()][readerGroups.size()];
        for (LatencyTableData.LatencyClassEntry c : table.classes()) {
            OpClass oc = byName.get(c.name());
            for (RegFile f : files) {
                Map<String, Integer> row = c.latency().get(f.tableKey());
                int dflt = row == null ? -1 : row.getOrDefault("*", -1);
                for (int g = 0; g < readerGroups.size(); g++) {
                    raw[f.ordinal()][oc.id()][g] = row == null ? -1 : row.getOrDefault(readerGroups.get(g), dflt);
                }
            }
        }
        required = new int[files.length][classes.size()][readerGroups.size()];
        for (LatencyTableData.LatencyClassEntry c : table.classes()) {
            OpClass oc = byName.get(c.name());
            for (RegFile f : files) {
                Map<String, Integer> row = c.latency().get(f.tableKey());
                for (int g = 0; g < readerGroups.size(); g++) {
                    int usual = raw[f.ordinal()][oc.id()][g];
                    Integer min = row == null ? null : row.get(REQUIRED_PREFIX + readerGroups.get(g));
                    required[f.ordinal()][oc.id()][g] = min != null && usual >= 0 ? Math.min(min, usual) : usual;
                }
            }
        }
        drain = new int[files.length][classes.size()];
        for (LatencyTableData.LatencyClassEntry c : table.classes()) {
            for (RegFile f : files) {
                Map<String, Integer> row = c.latency().get(f.tableKey());
                drain[f.ordinal()][byName.get(c.name()).id()] = row == null ? -1 : row.getOrDefault(DRAIN, -1);
            }
        }
        lowHalfRaw = new int[classes.size()][readerGroups.size()];
        highHalfReadLate = new int[classes.size()];
        for (int[] row : lowHalfRaw) {
            java.util.Arrays.fill(row, -1);
        }
        for (LatencyTableData.WideSplit w : table.wideSplits()) {
            OpClass oc = byName.get(w.latencyClass());
            highHalfReadLate[oc.id()] = w.highHalfReadLate();
            int dflt = w.lowHalfLatency().getOrDefault("*", -1);
            for (int g = 0; g < readerGroups.size(); g++) {
                lowHalfRaw[oc.id()][g] = w.lowHalfLatency().getOrDefault(readerGroups.get(g), dflt);
            }
        }
        for (LatencyTableData.OpcodeRule r : table.opcodes()) {
            rulesByMnemonic.computeIfAbsent(r.mnemonic(), k -> new ArrayList<>()).add(r);
        }
    }

    private int pipeIndex(String pipe, String className) {
        int p = pipes.indexOf(pipe);
        if (p < 0) {
            throw new IllegalArgumentException("latency table " + table.sm() + ": class " + className + " names unknown pipe " + pipe);
        }
        return p;
    }

    /** The model of a described target's latency table, built once per description. */
    public static LatencyModel of(org.jptxas.spi.TargetDescription description) {
        return description.derived(LatencyModel.class, d -> new LatencyModel(d.latencyTable()));
    }

    /** Builds a model from an explicit table (tests, experiments). */
    public static LatencyModel from(LatencyTableData table) {
        return new LatencyModel(table);
    }

    public LatencyTableData table() {
        return table;
    }

    public String name() {
        return table.sm();
    }

    public int scoreboards() {
        return table.scoreboards();
    }

    public int maxStall() {
        return table.maxStall();
    }

    /** Largest stall per instruction ptxas uses when it spreads a long wait over padding instructions. */
    public int paddingStall() {
        return table.paddingStall();
    }

    public int scoreboardSetup() {
        return table.scoreboardSetup();
    }

    public List<OpClass> classes() {
        return List.copyOf(classes);
    }

    /** The class with id {@code id}. */
    public OpClass classById(int id) {
        return classes.get(id);
    }

    public OpClass opClass(String name) {
        OpClass c = byName.get(name);
        if (c == null) {
            throw new IllegalArgumentException("latency table " + table.sm() + " has no class '" + name + "'");
        }
        return c;
    }

    public Optional<OpClass> findClass(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * The class of a SASS instruction: the rule for {@code mnemonic} whose modifiers are all present and that has
     * the most modifiers.
     */
    public Optional<OpClass> classify(String mnemonic, Set<String> modifiers) {
        List<LatencyTableData.OpcodeRule> rules = rulesByMnemonic.get(mnemonic);
        if (rules == null) {
            return Optional.empty();
        }
        LatencyTableData.OpcodeRule best = null;
        for (LatencyTableData.OpcodeRule r : rules) {
            if (modifiers.containsAll(r.modifiers()) && (best == null || r.modifiers().size() > best.modifiers().size())) {
                best = r;
            }
        }
        return best == null ? Optional.empty() : Optional.of(byName.get(best.latencyClass()));
    }

    public int readerGroup(String name) {
        int g = readerGroups.indexOf(name);
        if (g < 0) {
            throw new IllegalArgumentException("no reader group '" + name + "'");
        }
        return g;
    }

    public int pipeCount() {
        return pipes.size();
    }

    public String pipeName(int pipe) {
        return pipes.get(pipe);
    }

    /** What the scheduler treats specially about the pipe. */
    public PipeRole pipeRole(int pipe) {
        return pipeRoles.get(pipe);
    }

    /** Whether the pipe's variable-latency results return in issue order. */
    public boolean inOrder(int pipe) {
        return table.pipes().get(pipe).inOrder();
    }

    /** Cycles between two issues to the same pipe. */
    public int issueInterval(int pipe) {
        return issueInterval[pipe];
    }

    /** Cycles an instruction of class {@code c} keeps its pipe from accepting the next instruction. */
    public int pipeBusy(OpClass c) {
        return Math.max(issueInterval[c.pipe()], c.issueCycles());
    }

    /**
     * Read-after-write cycles from a fixed-latency writer to a reader in {@code readerGroup}; -1 when the writer is
     * variable (the reader waits on a scoreboard instead) or the table gives no entry for this file.
     */
    public int raw(OpClass writer, RegFile file, int readerGroup) {
        return raw[file.ordinal()][writer.id()][readerGroup];
    }

    /**
     * Read-after-write cycles for the low register of a 64-bit R result of {@code writer} (Hopper's IMAD.WIDE writes
     * it early); never more than {@link #rawOrDefault}.
     */
    public int rawLowHalf(OpClass writer, int readerGroup) {
        int whole = rawOrDefault(writer, RegFile.R, readerGroup);
        int low = lowHalfRaw[writer.id()][readerGroup];
        return low < 0 ? whole : Math.min(low, whole);
    }

    /**
     * Cycles after a write of {@code file} by {@code writer} before an instruction that drains writes (CALL, BSYNC)
     * may issue; -1 when the table sets no such constraint.
     */
    public int drain(OpClass writer, RegFile file) {
        return writer.variable() ? -1 : drain[file.ordinal()][writer.id()];
    }

    /** Cycles after issue at which {@code reader} reads the high register of a 64-bit R source (0: at issue). */
    public int highHalfReadLate(OpClass reader) {
        return highHalfReadLate[reader.id()];
    }

    /**
     * Read-after-write cycles a reader needs at least (what the hazard checker enforces): the table's
     * {@code min:<group>} column where ptxas sometimes reads sooner than it usually schedules, else as
     * {@link #rawOrDefault}.
     */
    public int rawRequired(OpClass writer, RegFile file, int readerGroup) {
        int r = required[file.ordinal()][writer.id()][readerGroup];
        return r >= 0 ? r : rawOrDefault(writer, file, readerGroup);
    }

    /** Read-after-write cycles as the scheduler must assume them (never less than 1 for a fixed writer). */
    public int rawOrDefault(OpClass writer, RegFile file, int readerGroup) {
        int r = raw(writer, file, readerGroup);
        if (r >= 0) {
            return r;
        }
        return writer.variable() ? scoreboardSetup() : defaultLatency(file);
    }

    private static int defaultLatency(RegFile file) {
        return file == RegFile.B ? 1 : 4;
    }

    /**
     * The latency the list scheduler plans with for a variable-latency producer (its consumers wait on a scoreboard,
     * so the control words do not depend on it): memory loads through the LSU or texture pipes are long (ptxas calls
     * anything above 19 cycles long), other decoupled units (MUFU, conversions, S2R, FP64 on consumer parts) medium.
     */
    public int expectedLatency(OpClass c) {
        if (!c.variable()) {
            return 1;
        }
        return isHot(c) ? 30 : 12;
    }

    /** Write-after-read cycles: a writer of class {@code writer} after a reader of class {@code reader}. */
    public int war(OpClass reader, OpClass writer) {
        return writer.variable() ? Math.max(reader.war(), 1) : 1;
    }

    /** Write-after-write cycles between two fixed-latency writers of the same register. */
    public int waw(OpClass first, OpClass second) {
        return Math.max(first.waw(), 1);
    }

    /** A long-latency instruction in the seed's sense: variable and memory-bound ("hot"). */
    public boolean isHot(OpClass c) {
        return c.variable() && pipeRoles.get(c.pipe()).memory() && c.scoreboardOrder().length > 0
                && c.scoreboardOrder()[0] >= 2;
    }
}
