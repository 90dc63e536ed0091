package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.jptxas.tables.ptx.WordGate;

/**
 * The PTX instruction set: which instructions exist and whether one use of an instruction (its modifiers, operand
 * shapes and types) is legal for a PTX version and a target. Loaded once from the JSON instruction table
 * {@code ptx-instructions.json} in module {@code tables}; immutable and thread-safe.
 *
 * <p><b>Opcodes.</b> Instructions are named as the PTX ISA manual's section titles spell them: one word for most
 * ({@code add}, {@code ld}, {@code mma}, {@code bar}), several for families the manual treats as separate
 * instructions ({@code cp.async.bulk.tensor}, {@code mbarrier.arrive}, {@code wgmma.mma_async},
 * {@code tcgen05.alloc}). Sub-operations the manual treats as modifiers stay modifiers: {@code mul.lo} is opcode
 * {@code mul} with modifier {@code lo}, {@code bar.sync} is {@code bar} + {@code sync}.
 *
 * <p><b>Splitting.</b> The parser splits an instruction's name on dots. {@link #split(List)} turns those words back
 * into the base opcode and its modifiers by taking the longest prefix of words that is a known opcode:
 * {@code [cp, async, bulk, tensor, 2d, shared::cluster, global]} → {@code cp.async.bulk.tensor} +
 * {@code [2d, shared::cluster, global]}; {@code [ld, global, v4, f32]} → {@code ld} + {@code [global, v4, f32]}.
 *
 * <p><b>Checking.</b> {@link #check} takes the modifiers in source order (types included: {@code add.f32} has the
 * modifier {@code f32}) and the operands as {@link OperandUse}s; it returns ptxas's diagnostics for the instruction
 * (empty when legal). Conventions for the operands:
 * <ul>
 *   <li>a {@code d|p} pair ({@code setp}, {@code elect}, {@code shfl.sync}, {@code lop3}) is two operands, in order;</li>
 *   <li>immediate floats may carry {@code "f32"} (the {@code 0f} form) or {@code "f64"} (the {@code 0d} and decimal
 *       forms) as their declared type, which decides whether a bit-typed instruction takes them;</li>
 *   <li>integer immediates may carry their value ({@link OperandUse#immediate(long)}): ptxas checks some (cp.async
 *       sizes, bulk sizes in multiples of 16, barrier thread counts in multiples of 32, setmaxnreg's range);</li>
 *   <li>a negated predicate {@code !p} is a {@link OperandShape#PREDICATE}; a special register keeps its type
 *       ({@code %tid.x} is {@code u32}).</li>
 * </ul>
 *
 * <p>The table ({@code ptx-instructions.json}) and its form language are described in
 * {@code org.jptxas.tables.ptx.FormParser}'s documentation and the table's {@code note}; its claims are
 * differential-tested against ptxas 13 by {@code PtxasDifferentialTest} ({@code mvn verify -Pcorpus}).
 */
public final class PtxIsa {
    /** The base opcode and the modifiers that follow it. */
    public record Split(String opcode, List<String> modifiers) {
        public Split {
            modifiers = List.copyOf(modifiers);
        }
    }

    private final PtxInstructionSet table;
    private final int longestOpcodeWords;

    PtxIsa(PtxInstructionSet table) {
        this.table = table;
        int longest = 1;
        for (String op : table.instructions().keySet()) {
            longest = Math.max(longest, op.split("\\.").length);
        }
        this.longestOpcodeWords = longest;
    }

    private static final class Holder {
        static final PtxIsa INSTANCE = new PtxIsa(PtxInstructionSet.bundled());
    }

    /** The instruction set of PTX ISA 9.0. */
    public static PtxIsa get() {
        return Holder.INSTANCE;
    }

    /** Whether {@code opcode} (a base name as the manual spells it, e.g. {@code "ld"}, {@code "mma"}) exists. */
    public boolean knows(String opcode) {
        return table.instruction(opcode) != null;
    }

    /** Every known opcode, sorted. */
    public Set<String> opcodes() {
        return table.instructions().keySet();
    }

    /** The compiled table this instruction set checks against. */
    public PtxInstructionSet table() {
        return table;
    }

    /**
     * Splits the dotted words of an instruction name (without dots, e.g. {@code ["ld","global","v4","f32"]}) into the
     * longest known opcode and the remaining modifiers; empty when no prefix of the words is a known opcode.
     */
    public Optional<Split> split(List<String> dottedWords) {
        int max = Math.min(longestOpcodeWords, dottedWords.size());
        for (int n = max; n >= 1; n--) {
            String candidate = String.join(".", dottedWords.subList(0, n));
            if (knows(candidate)) {
                return Optional.of(new Split(candidate, dottedWords.subList(n, dottedWords.size())));
            }
        }
        return Optional.empty();
    }

    /** ptxas's message for an instruction name it does not know. */
    public static String unknownInstruction(String name) {
        return "Not a name of any known instruction: '" + name + "'";
    }

    /**
     * Checks one instruction use for {@code .version} {@code ptxVersionTimes10} (e.g. 78 for 7.8) and {@code target}.
     *
     * @return the problems found, in ptxas's wording; empty when the use is legal
     */
    public List<IsaProblem> check(InstructionUse use, int ptxVersionTimes10, TargetInfo target) {
        InstructionDef def = table.instruction(use.opcode());
        if (def == null) {
            return List.of(new IsaProblem(unknownInstruction(use.opcode()), -1));
        }
        List<IsaProblem> problems = wordGateProblems(use, target, WordGate.Placement.FIRST, false);
        List<IsaProblem> own = AtomicOperationRules.check(use, target,
                () -> new FormMatcher(table, def, use, ptxVersionTimes10, target).problems());
        problems.addAll(own);
        problems.addAll(wordGateProblems(use, target, WordGate.Placement.AFTER, false));
        problems.addAll(wordGateProblems(use, target, WordGate.Placement.WHEN_LEGAL, !own.isEmpty()));
        return problems;
    }

    /**
     * The table's gates of the words the use writes, of one placement: per word the first gate above the target
     * ({@code .bf16x2} needs sm_75, then sm_80); none when {@code skip}.
     */
    private List<IsaProblem> wordGateProblems(InstructionUse use, TargetInfo target, WordGate.Placement placement,
            boolean skip) {
        List<IsaProblem> out = new ArrayList<>();
        if (skip) {
            return out;
        }
        for (String word : use.modifiers()) {
            for (WordGate g : table.wordGates(word)) {
                if (g.placement() == placement && target.sm() < g.minSm()) {
                    out.add(new IsaProblem("Feature '" + g.feature() + "' requires .target sm_" + g.minSm()
                            + " or higher", -1));
                    break;
                }
            }
        }
        return out;
    }

    static List<IsaProblem> single(String message) {
        List<IsaProblem> l = new ArrayList<>(1);
        l.add(new IsaProblem(message, -1));
        return l;
    }
}
