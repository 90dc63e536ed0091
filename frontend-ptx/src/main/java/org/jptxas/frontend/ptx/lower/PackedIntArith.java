package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * The sm_90 packed 16-bit integer forms {@code add}/{@code min}/{@code max} {@code .s16x2/.u16x2} and the
 * {@code .relu} min/max ({@code .s16x2}, {@code .s32}), with 32-bit instructions: each half extended (SGXT or a mask
 * for the low one, SHF.R for the high one), combined, and packed back with PRMT; {@code .relu} is a further maximum
 * with 0. (ptxas uses VIADD.16x2 and VIMNMX.{S,U}16x2[.RELU], which the sm_90 tables do not encode yet.)
 */
final class PackedIntArith {
    private PackedIntArith() {
    }

    /** Whether {@code insn} is one of these forms: a {@code .s16x2/.u16x2} type or an integer {@code .relu}. */
    static boolean applies(Instruction insn) {
        return pairType(insn) != null || insn.hasModifier("relu") && insn.hasModifier("s32");
    }

    /** {@code S16} or {@code U16} for a packed pair ({@code .s16x2}, {@code .u16x2}), else null. */
    private static PtxType pairType(Instruction insn) {
        return insn.hasModifier("s16x2") ? PtxType.S16 : insn.hasModifier("u16x2") ? PtxType.U16 : null;
    }

    static void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        String op = insn.opcode();
        if (!op.equals("add") && !op.equals("min") && !op.equals("max")) {
            throw cx.unsupported(insn.fullName());
        }
        MathEmitter m = new MathEmitter(cx);
        boolean relu = insn.hasModifier("relu");
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Reg a = m.r(), b = m.r();
        MovLowerer.move(cx, a, cx.src(Ptx.op(insn, 1), PtxType.B32), PtxType.B32);
        MovLowerer.move(cx, b, cx.src(Ptx.op(insn, 2), PtxType.B32), PtxType.B32);
        PtxType half = pairType(insn);
        if (half == null) { // min/max.relu.s32
            Reg r = m.r();
            combine(m, op, true, r, a, b);
            m.op("IMNMX", "", d, r, RZ, MathEmitter.not(MathEmitter.PT));
            return;
        }
        if (op.equals("add")) { // the low half's carry must not reach the high half
            Reg low = m.r(), highA = m.r(), highB = m.r(), high = m.r();
            m.iadd3(low, a, b, RZ);
            m.lop3(highA, a, 0xffff0000, RZ, 0xc0);
            m.lop3(highB, b, 0xffff0000, RZ, 0xc0);
            m.iadd3(high, highA, highB, RZ);
            m.op("PRMT", "", d, low, 0x7610, high);
            return;
        }
        boolean signed = half == PtxType.S16;
        Reg[] parts = new Reg[2];
        for (int k = 0; k < 2; k++) {
            Reg x = m.r(), y = m.r();
            extend(m, x, a, k, signed);
            extend(m, y, b, k, signed);
            Reg r = m.r();
            combine(m, op, signed, r, x, y);
            if (relu) {
                Reg clamped = m.r();
                m.op("IMNMX", "", clamped, r, RZ, MathEmitter.not(MathEmitter.PT));
                r = clamped;
            }
            parts[k] = r;
        }
        m.op("PRMT", "", d, parts[0], 0x5410, parts[1]);
    }

    private static void extend(MathEmitter m, Reg d, Reg v, int half, boolean signed) {
        if (half == 0) {
            if (signed) {
                m.op("SGXT", "", d, v, 16);
            } else {
                m.lop3(d, v, 0xffff, RZ, 0xc0);
            }
        } else {
            m.shf(signed ? "R.S32.HI" : "R.U32.HI", d, RZ, 16, v);
        }
    }

    private static void combine(MathEmitter m, String op, boolean signed, Reg d, Reg a, Reg b) {
        Src which = op.equals("min") ? Src.of(MathEmitter.PT) : MathEmitter.not(MathEmitter.PT);
        m.op("IMNMX", signed ? "" : "U32", d, a, b, which);
    }
}
