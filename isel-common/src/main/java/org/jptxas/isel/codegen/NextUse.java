package org.jptxas.isel.codegen;

import java.util.List;

/**
 * What first happens to a register after an instruction, walking the straight-line code that follows it: an
 * instruction reads it, an instruction overwrites it, or the walk ends first (a branch or exit, or a label where the
 * walk keeps to the block). The line rules that give an instruction the line of the one that uses its value (a shift
 * fused into its add, a {@code .const} word read as an operand, a copy an if-converted arm overwrites, a constant
 * folded into an address) all ask this one question.
 */
record NextUse(Kind kind, int index) {
    enum Kind { READ, WRITE, END }

    private static final NextUse END = new NextUse(Kind.END, -1);

    /** The reader of {@code reg} after {@code i}, in its block, or -1 when it is overwritten or the block ends first. */
    static int reader(List<CodeLine> code, int i, int reg) {
        NextUse use = inBlock(code, i, reg, 1);
        return use.kind() == Kind.READ ? use.index() : -1;
    }

    /**
     * The first use of {@code reg} after {@code i} in its block; a read of any of the {@code width} registers from
     * {@code reg} on (a {@code .64} load's pair) counts, a write only of {@code reg} itself. An instruction that
     * both reads and writes the register reads it.
     */
    static NextUse inBlock(List<CodeLine> code, int i, int reg, int width) {
        return scan(code, i, reg, width, true);
    }

    /** As {@link #inBlock}, but walking on over labels (the fall-through path). */
    static NextUse alongFallThrough(List<CodeLine> code, int i, int reg) {
        return scan(code, i, reg, 1, false);
    }

    private static NextUse scan(List<CodeLine> code, int i, int reg, int width, boolean stopAtLabel) {
        for (int j = i + 1; j < code.size(); j++) {
            CodeLine next = code.get(j);
            if (stopAtLabel && next.label() != null) {
                return END;
            }
            for (int w = 0; w < width; w++) {
                if (ShiftIntoAddLines.reads(next.op(), reg + w)) {
                    return new NextUse(Kind.READ, j);
                }
            }
            if (ShiftIntoAddLines.writes(next.op(), reg)) {
                return new NextUse(Kind.WRITE, j);
            }
            if (next.endsControl()) {
                return END;
            }
        }
        return END;
    }
}
