package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;

/**
 * Two 32-bit shared-memory loads of adjacent words from one base register ({@code ld.shared.f32 [%rd17+0]} on one
 * source line, {@code ld.shared.f32 [%rd17+4]} on the next), which ptxas merges into one {@code LDS.64} carrying the
 * first load's line, so the second load's line has no code of its own in ptxas's table. Where jptxas keeps the two
 * LDS, the one at the higher word takes the line of the one at the lower word in the same way (checked with ptxas 13
 * {@code -lineinfo} and {@code nvdisasm -g} on the corpus's dwtHaar1D and fastWalshTransform kernels). Only a pair whose
 * lower word is 8-byte aligned relative to the base is taken, as the merged load needs. Reads the typed instructions.
 */
final class LoadPairLines {
    private LoadPairLines() {}

    private static final int ZERO = (int) SlotKind.GPR.zeroValue();

    /**
     * The index of the load of the word below the one the LDS at {@code i} loads (the last such load before it in its
     * block, the base register unchanged between them), or -1 when there is none or the instruction is no such load.
     */
    static int partner(List<CodeLine> code, int i) {
        CodeLine line = code.get(i);
        Word word = word(line);
        if (word == null || word.offset() % 8 != 4) {
            return -1;
        }
        if (line.label() != null) {
            return -1;
        }
        for (int j = i - 1; j >= 0; j--) {
            CodeLine before = code.get(j);
            if (before.endsControl()) {
                return -1;
            }
            Word w = word(before);
            if (w != null && w.base() == word.base() && w.offset() == word.offset() - 4
                    && before.opcode().equals(line.opcode())) {
                return j;
            }
            if (ShiftIntoAddLines.writes(before.op(), word.base()) || before.label() != null) {
                return -1;
            }
        }
        return -1;
    }

    /** A 32-bit shared load's base register and offset ({@code LDS R10, [R10+0x4]}). */
    private record Word(int base, long offset) {}

    private static Word word(CodeLine line) {
        SassOp op = line.op();
        if (op.guarded() || !op.mnemonic().equals("LDS") || op.operandCount() != 2) {
            return null;
        }
        SassOperands.Operand address = op.form().operands().operands().get(1);
        List<Integer> slots = address.slots();
        if (slots.isEmpty() || !address.before(0).equals("[") || !register(op, slots.get(0))) {
            return null;
        }
        int base = op.slotRegister(slots.get(0), SlotKind.GPR);
        if (base == ZERO) {
            return null;
        }
        if (slots.size() == 1 && address.after(0).equals("]")) {
            return new Word(base, 0);
        }
        if (slots.size() == 2 && (address.after(0).equals("+") || address.after(0).isEmpty())
                && address.after(1).equals("]") && op.form().slot(slots.get(1)) instanceof SassSlot.Field f) {
            long v = op.value(slots.get(1));
            int width = f.field().width();
            return switch (f.kind()) {
                case HEX -> new Word(base, v << f.shift());
                case SHEX, SHEX_PLUS -> new Word(base, (v << (64 - width) >> (64 - width)) << f.shift());
                default -> null;
            };
        }
        return null;
    }

    private static boolean register(SassOp op, int slot) {
        return op.form().slot(slot) instanceof SassSlot.Field f && f.kind() == SlotKind.GPR;
    }
}
