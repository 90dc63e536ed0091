package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;

/**
 * Instructions whose work ptxas folds into an operand of the instructions that use the value, so that their PTX line
 * has no code of its own in ptxas's table; where jptxas keeps them, they continue the row before them:
 * <ul>
 * <li>an absolute value ({@code abs.f32}, {@code FADD R67, |R10|, -RZ}): ptxas reads {@code |R10|} in the use;</li>
 * <li>a 64-bit add of a constant whose sum only addresses memory, directly or through further 64-bit adds
 * ({@code add.s64 %rd41, %rd33, 64} feeding a {@code cp.async}): ptxas puts the constant into the memory
 * instruction's offset ({@code [R10.64+0x40]}), which keeps its own line.</li>
 * </ul>
 * Checked with ptxas 13 {@code -lineinfo} and {@code nvdisasm -g} on the corpus's mcx_core and hwt (abs) and on
 * Triton's matmul through {@code cp.async} on sm_90 (the offset). Reads the typed instructions.
 */
final class FoldedOperandLines {
    private FoldedOperandLines() {}

    private static final int ZERO = (int) SlotKind.GPR.zeroValue();
    private static final int NO_PREDICATE = (int) SlotKind.PRED.zeroValue();

    /** How many adds a sum may pass through on its way to an address. */
    private static final int CHAIN = 3;

    /** Whether the instruction at {@code i} is such an absolute value or such an add (either half of it). */
    static boolean folded(List<CodeLine> code, int i) {
        SassOp op = code.get(i).op();
        if (op.guarded()) {
            return false;
        }
        if (absolute(op)) {
            return true;
        }
        int low = op.mnemonic().equals("IADD3.X") ? lowHalf(code, i) : i;
        return low >= 0 && constantAdd(code.get(low).op()) && addressesOnly(code, low, CHAIN);
    }

    /** {@code FADD R67, |R10|, -RZ}: the absolute value of a register. */
    private static boolean absolute(SassOp op) {
        if (!op.mnemonic().equals("FADD") || op.operandCount() != 3) {
            return false;
        }
        int d = op.register(0, SlotKind.GPR);
        List<SassOperands.Operand> operands = op.form().operands().operands();
        SassOperands.Operand source = operands.get(1);
        SassOperands.Operand zero = operands.get(2);
        return d >= 0 && d != ZERO && source.slots().size() == 1 && source.before(0).equals("|")
                && source.after(0).startsWith("|") && gpr(op, source.slots().get(0)) >= 0
                && zero.slots().size() == 1 && zero.before(0).equals("-") && zero.after(0).isEmpty()
                && op.slotRegister(zero.slots().get(0), SlotKind.GPR) == ZERO;
    }

    /** {@code IADD3 R70, P5, R46, 0x40, RZ}: the low half of a 64-bit add of a constant, its carry out to a predicate. */
    private static boolean constantAdd(SassOp op) {
        return op != null && !op.guarded() && lowAdd(op) && op.register(2, SlotKind.GPR) >= 0
                && op.register(2, SlotKind.GPR) != ZERO && op.immediateSlot(3) >= 0;
    }

    /** {@code IADD3 Rd, Pc, Ra, b, RZ} with a carry out to a predicate. */
    private static boolean lowAdd(SassOp op) {
        if (!op.mnemonic().equals("IADD3") || op.operandCount() != 5) {
            return false;
        }
        int d = op.register(0, SlotKind.GPR);
        int carry = op.register(1, SlotKind.PRED);
        return d >= 0 && d != ZERO && carry >= 0 && carry != NO_PREDICATE && op.register(4, SlotKind.GPR) == ZERO;
    }

    /**
     * The index of the low-half add whose carry the {@code IADD3.X Rd, Ra, RZ, RZ, Pc, !PT} at {@code i} takes (the
     * last writer of its carry-in before it), or -1.
     */
    private static int lowHalf(List<CodeLine> code, int i) {
        SassOp op = code.get(i).op();
        if (op.operandCount() != 6 || op.register(2, SlotKind.GPR) != ZERO || op.register(3, SlotKind.GPR) != ZERO) {
            return -1;
        }
        int carry = op.register(4, SlotKind.PRED);
        if (carry < 0 || carry == NO_PREDICATE) {
            return -1;
        }
        for (int k = i - 1; k >= 0; k--) {
            SassOp before = code.get(k).op();
            if (before != null && before.operandCount() > 1 && before.register(1, SlotKind.PRED) == carry) {
                return lowAdd(before) ? k : -1;
            }
            if (before != null && before.operandCount() > 0 && before.register(0, SlotKind.PRED) == carry) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * Whether the first instruction after {@code i} (along the fall-through path) that reads the sum's low register
     * uses it as a 64-bit address, or is a 64-bit add whose own sum does so ({@code depth} adds at most).
     */
    private static boolean addressesOnly(List<CodeLine> code, int i, int depth) {
        int sum = code.get(i).op().register(0, SlotKind.GPR);
        NextUse use = NextUse.alongFallThrough(code, i, sum);
        if (use.kind() != NextUse.Kind.READ || code.get(use.index()).guarded()) {
            return false;
        }
        SassOp op = code.get(use.index()).op();
        if (addresses(op, sum)) {
            return true;
        }
        return depth > 0 && lowAdd(op) && (op.register(2, SlotKind.GPR) == sum || op.register(3, SlotKind.GPR) == sum)
                && addressesOnly(code, use.index(), depth - 1);
    }

    /** Whether an operand of the instruction is a memory address based on the register pair {@code [R70.64...]}. */
    private static boolean addresses(SassOp op, int reg) {
        for (SassOperands.Operand o : op.form().operands().operands()) {
            for (int s = 0; s < o.slots().size(); s++) {
                if (o.before(s).endsWith("[") && o.after(s).startsWith(".64") && gpr(op, o.slots().get(s)) == reg) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The general register a slot holds (RZ excluded), or -1. */
    private static int gpr(SassOp op, int slot) {
        if (!(op.form().slot(slot) instanceof SassSlot.Field f) || f.kind() != SlotKind.GPR) {
            return -1;
        }
        int r = op.slotRegister(slot, SlotKind.GPR);
        return r == ZERO ? -1 : r;
    }
}
