package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassEncoder;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassOp;

/**
 * The end of a function's code as ptxas lays it out: after the last instruction, a {@code BRA} to itself (so a
 * fetch past the end never runs off), then {@code NOP}s up to the size unit: the code size is a multiple of 128
 * bytes, and at least the target's {@code trailingNops} follow the self-branch (eight from sm_80 on in every ptxas 13
 * cubin of the shared corpus, sm_75 … sm_120).
 */
public final class FunctionLayout {
    private FunctionLayout() {}

    public static final int INSTRUCTION_BYTES = 16;
    public static final int ALIGNMENT = 128;
    /** Stall 0, no yield, no scoreboard: ptxas's control for the self-branch and the padding NOPs (0x7e0). */
    public static final Control PADDING_CONTROL = new Control(0, false, Control.NONE, Control.NONE, 0);
    static final String END_LABEL = ".L_end";

    /**
     * {@code code} followed by the self-branch and the padding, at least {@code minNops} NOPs, typed in the target's
     * encoding ({@code isa}).
     */
    public static List<CodeLine> withEnd(List<CodeLine> code, int minNops, SassIsa isa) {
        List<CodeLine> out = new ArrayList<>(code);
        out.add(CodeLine.of(typed(isa, "BRA {}", new long[] {0}, new String[] {END_LABEL})).withLabel(END_LABEL));
        int size = out.size() * INSTRUCTION_BYTES + minNops * INSTRUCTION_BYTES;
        int padded = (size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        CodeLine nop = nop(isa);
        while (out.size() * INSTRUCTION_BYTES < padded) {
            out.add(nop);
        }
        return out;
    }

    /** A {@code NOP} in the target's encoding ({@code isa}), typed. */
    public static CodeLine nop(SassIsa isa) {
        return CodeLine.of(typed(isa, "NOP", new long[0], new String[0]));
    }

    /** The instruction of {@code skeleton} with the operands, built from the target's form without text. */
    private static SassOp typed(SassIsa isa, String skeleton, long[] values, String[] targets) {
        return new SassEncoder(isa).instruction(skeleton, values, targets).orElseThrow(
                () -> new IllegalStateException("no " + isa.sm() + " form spells '" + skeleton + "'"));
    }

    /** The self-branch or a padding NOP, whose control bits are fixed. */
    public static boolean isPadding(CodeLine line) {
        String opcode = line.opcode();
        return !line.guarded() && (opcode.equals("NOP") || END_LABEL.equals(line.label()) && opcode.equals("BRA"));
    }
}
