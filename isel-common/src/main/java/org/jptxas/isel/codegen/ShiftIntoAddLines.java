package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SlotKind;

/**
 * A right shift whose value only feeds an add, which ptxas fuses with the add into one LEA.HI: {@code shr.u32} +
 * {@code add.s32} become {@code LEA.HI Rd, Rs, Ra, RZ, 32-k}, and a sign extension ({@code cvt.s64.s32}) feeding the
 * high half of a 64-bit add becomes {@code LEA.HI.X.SX32}. The fused instruction carries the add's line, so the
 * shift's line has no code of its own in ptxas's table. Where jptxas keeps the shift as an SHF before its add, the
 * shift takes its add's line in the same way (checked with ptxas 13 {@code -lineinfo} and {@code nvdisasm -g}).
 * Which of two sign extensions of one add is fused is decided once, in ir-ori's InstructionCombining; the kept one
 * is read by the LEA.HI.X.SX32, no add, so it keeps its own line here.
 * Reads the typed instructions; a line without one is no shift and no add.
 */
final class ShiftIntoAddLines {
    private ShiftIntoAddLines() {}

    private static final int ZERO = (int) SlotKind.GPR.zeroValue();
    private static final long SIGN_SHIFT = 0x1f;

    /**
     * The index of the add the shift at {@code i} folds into (the first instruction after it, in its block, that
     * reads the shifted register), or -1 when the instruction is no such shift.
     */
    static int consumer(List<CodeLine> code, int i) {
        CodeLine line = code.get(i);
        Shift shift = shift(line.op());
        if (line.guarded() || shift == null || shift.sign() && shift.amount() != SIGN_SHIFT) {
            return -1;
        }
        int j = NextUse.reader(code, i, shift.destination());
        if (j < 0) {
            return -1;
        }
        CodeLine next = code.get(j);
        SassOp op = next.op();
        int reg = shift.destination();
        int first = addends(op);
        boolean carries = op.mnemonic().equals("IADD3.X");
        if (next.guarded() || first < 0 || carries != shift.sign()) {
            return -1;
        }
        // of two sign extensions added, InstructionCombining has fused one into LEA.HI.X.SX32 as ptxas does (the
        // older value, SignFillNumbering): the other's SHF is read by that LEA, no add, and keeps its own line
        return isRegister(op, first, reg) || isRegister(op, first + 1, reg) ? j : -1;
    }

    /** {@code SHF.R.U32.HI R4, RZ, 0x5, R4}: a logical shift right; {@code SHF.R.S32.HI R7, RZ, 0x1f, R0}: a sign. */
    private record Shift(boolean sign, int destination, long amount) {}

    private static Shift shift(SassOp op) {
        if (op.operandCount() != 4) {
            return null;
        }
        boolean sign = op.mnemonic().equals("SHF.R.S32.HI");
        if (!sign && !op.mnemonic().equals("SHF.R.U32.HI")) {
            return null;
        }
        int d = op.register(0, SlotKind.GPR);
        int amount = op.immediateSlot(2);
        int source = op.register(3, SlotKind.GPR);
        if (d < 0 || d == ZERO || op.register(1, SlotKind.GPR) != ZERO || amount < 0 || op.immediate(amount) < 0
                || source < 0 || source == ZERO) {
            return null;
        }
        return new Shift(sign, d, op.immediate(amount));
    }

    /**
     * The operand index of the first of the two addends of {@code IADD3 R4, R4, R21, RZ} /
     * {@code IADD3.X R9, R7, c[0x0][0x16c], RZ, P0, !PT} / {@code IADD3 R2, P0, R4, R5, RZ} (a register destination,
     * maybe a carry-out predicate, two addends and no third), else -1.
     */
    private static int addends(SassOp op) {
        if (!op.mnemonic().equals("IADD3") && !op.mnemonic().equals("IADD3.X")) {
            return -1;
        }
        int d = op.register(0, SlotKind.GPR);
        if (d < 0 || d == ZERO) {
            return -1;
        }
        int carry = op.register(1, SlotKind.PRED);
        int first = carry >= 0 && carry != SlotKind.PRED.zeroValue() ? 2 : 1;
        return op.operandCount() > first + 2 && op.register(first + 2, SlotKind.GPR) == ZERO ? first : -1;
    }

    /** The general register a slot holds, RZ excluded, or -1. */
    private static int gpr(SassOp op, int slot) {
        int r = op.slotRegister(slot, SlotKind.GPR);
        return r == ZERO ? -1 : r;
    }

    /** Whether a slot's register is printed as a pair ({@code R2.64}). */
    private static boolean pair(SassOperands.Operand o, int k) {
        String after = o.after(k);
        return after.startsWith(".64") && (after.length() == 3 || !Character.isLetterOrDigit(after.charAt(3))
                && after.charAt(3) != '_');
    }

    /**
     * Whether a source operand names the register (as itself, or as the high half of a {@code .64} pair): every
     * operand but the first, which is the destination unless it is an address ({@code [R2.64]}, a store).
     */
    static boolean reads(SassOp op, int reg) {
        List<SassOperands.Operand> operands = op.form().operands().operands();
        boolean firstIsAddress = !operands.isEmpty() && operands.get(0).before(0).startsWith("[");
        for (int k = firstIsAddress ? 0 : 1; k < operands.size(); k++) {
            SassOperands.Operand o = operands.get(k);
            for (int s = 0; s < o.slots().size(); s++) {
                int n = gpr(op, o.slots().get(s));
                if (n >= 0 && (n == reg || pair(o, s) && n + 1 == reg)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the first operand, the destination of all but stores, is the register (or a pair holding it). */
    static boolean writes(SassOp op, int reg) {
        int n = leadingRegister(op, 0);
        if (n < 0) {
            return false;
        }
        boolean wide = pair(op.form().operands().operands().get(0), 0) || op.mnemonic().endsWith(".64")
                || op.mnemonic().contains(".WIDE");
        return n == reg || n + 1 == reg && wide;
    }

    /** The general register operand {@code k} starts with ({@code R7}, {@code R7.reuse}, {@code R2.64}), or -1. */
    private static int leadingRegister(SassOp op, int k) {
        List<SassOperands.Operand> operands = op.form().operands().operands();
        if (k >= operands.size()) {
            return -1;
        }
        SassOperands.Operand o = operands.get(k);
        return o.slots().isEmpty() || !o.before(0).isEmpty() ? -1 : gpr(op, o.slots().get(0));
    }

    /** Whether operand {@code k} is the register alone, or with {@code .reuse}. */
    private static boolean isRegister(SassOp op, int k, int reg) {
        List<SassOperands.Operand> operands = op.form().operands().operands();
        if (k >= operands.size()) {
            return false;
        }
        SassOperands.Operand o = operands.get(k);
        return o.slots().size() == 1 && o.before(0).isEmpty() && (o.after(0).isEmpty() || o.after(0).equals(".reuse"))
                && gpr(op, o.slots().get(0)) == reg;
    }
}
