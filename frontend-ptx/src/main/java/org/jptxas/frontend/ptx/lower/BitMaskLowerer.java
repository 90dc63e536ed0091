package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code bmsk.{clamp,wrap}.b32} and {@code szext.{clamp,wrap}.{u32,s32}}. ptxas uses BMSK/SGXT, which the learned
 * SASS tables do not have on every SM yet, so both are built from SHF, whose plain (non-{@code .W}) form clamps the
 * shift count to 32 exactly as the {@code .clamp} mode asks; {@code .wrap} masks the count to 5 bits first
 * (the PTX ISA's {@code a & 0x1f}, {@code b & 0x1f}).
 * <ul>
 *   <li>bmsk: {@code ((1 << b) - 1) << a}: a count of 32 or more gives the all-ones field, a start of 32 or more 0.
 *   <li>szext.u32: {@code a & ((1 << b) - 1)}; szext.s32: {@code (a << (32 - b)) >>s (32 - b)} with b at most 32.
 * </ul>
 */
@AutoService(InstructionLowerer.class)
public final class BitMaskLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("bmsk", "szext");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        boolean wrap = insn.hasModifier("wrap");
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Src a = cx.src(Ptx.op(insn, 1), PtxType.B32);
        Src b = cx.src(Ptx.op(insn, 2), PtxType.U32);
        if (insn.opcode().equals("bmsk")) {
            Object width = wrap ? wrapped(m, b) : b;
            Object start = wrap ? wrapped(m, a) : a;
            Reg ones = lowOnes(m, width);
            m.shf("L.U32", d, ones, start, RZ);
            return;
        }
        boolean signed = MathTypes.types(insn).stream().anyMatch(t -> t == PtxType.S32);
        Object width = wrap ? wrapped(m, b) : b;
        if (!signed) {
            Reg ones = lowOnes(m, width);
            m.lop3(d, a, ones, RZ, 0xc0);
            return;
        }
        Object w = width;
        if (!wrap) {
            if (b.value() instanceof Imm imm) {
                w = (int) Math.min(Integer.toUnsignedLong((int) imm.bits()), 32);
            } else {
                Reg p = m.p();
                Reg clamped = m.r();
                m.isetp("LT.U32", p, b, 33);
                m.sel(clamped, b, 32, p);
                w = clamped;
            }
        }
        Reg shift = m.r();
        if (w instanceof Integer k) {
            m.mov(shift, 32 - k);
        } else {
            m.iadd3(shift, MathEmitter.neg(w), 32, RZ);
        }
        Reg up = m.r();
        m.shf("L.U32", up, a, shift, RZ);
        m.shf("R.S32.HI", d, RZ, shift, up);
    }

    /** {@code (1 << n) - 1}: n low one bits (all 32 for n of 32 or more). */
    private static Reg lowOnes(MathEmitter m, Object n) {
        Reg one = m.imm(1);
        Reg bit = m.r();
        m.shf("L.U32", bit, one, n, RZ);
        Reg ones = m.r();
        m.iadd3(ones, bit, -1, RZ);
        return ones;
    }

    /** {@code x & 31}, folded for an immediate. */
    private static Object wrapped(MathEmitter m, Src x) {
        if (x.value() instanceof Imm imm) {
            return (int) (imm.bits() & 31);
        }
        Reg r = m.r();
        m.lop3(r, x, 31, RZ, 0xc0);
        return r;
    }
}
