package org.jptxas.frontend.ptx.isa;

import java.util.List;
import java.util.Optional;
import org.jptxas.ori.target.TargetInfo;

/**
 * The PTX instruction set: which instructions exist and whether one use of an instruction (its modifiers, operand
 * shapes and types) is legal for a PTX version and a target. Loaded once from the JSON instruction table in module
 * {@code tables}; immutable and thread-safe.
 *
 * <p>The parser splits an instruction's name on dots. {@link #split(List)} turns those words back into the base
 * opcode and its modifiers: it finds the longest known multi-word opcode at the start
 * ({@code cp.async.bulk.tensor.2d.shared::cluster.global} → {@code cp.async.bulk.tensor} +
 * {@code [2d, shared::cluster, global]}).
 */
public final class PtxIsa {
    /** The base opcode and the modifiers that follow it. */
    public record Split(String opcode, List<String> modifiers) {
        public Split {
            modifiers = List.copyOf(modifiers);
        }
    }

    private PtxIsa() {}

    private static final class Holder {
        static final PtxIsa INSTANCE = new PtxIsa();
    }

    /** The instruction set of PTX ISA 9.0. */
    public static PtxIsa get() {
        return Holder.INSTANCE;
    }

    /** Whether {@code opcode} (a base name as the manual spells it, e.g. {@code "ld"}, {@code "mma"}) exists. */
    public boolean knows(String opcode) {
        return false;
    }

    /**
     * Splits the dotted words of an instruction name (without dots, e.g. {@code ["ld","global","v4","f32"]}) into the
     * longest known opcode and the remaining modifiers; empty when no prefix of the words is a known opcode.
     */
    public Optional<Split> split(List<String> dottedWords) {
        return Optional.empty();
    }

    /**
     * Checks one instruction use for {@code .version} {@code ptxVersionTimes10} (e.g. 78 for 7.8) and {@code target}.
     *
     * @return the problems found, in ptxas's wording; empty when the use is legal
     */
    public List<IsaProblem> check(InstructionUse use, int ptxVersionTimes10, TargetInfo target) {
        return List.of();
    }
}
