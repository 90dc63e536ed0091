package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code div} and {@code rem}: integer division (16/32/64-bit, signed and unsigned) and floating-point division
 * ({@code .approx}, {@code .full}, IEEE {@code .rn} for f32 and f64).
 */
@AutoService(InstructionLowerer.class)
public final class DivisionLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("div", "rem");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = MathTypes.type(insn);
        MathEmitter m = new MathEmitter(cx);
        boolean rem = insn.opcode().equals("rem");
        if (MathTypes.isInt(t)) {
            integer(insn, cx, m, t, rem);
            return;
        }
        if (rem) {
            throw cx.unsupported("rem." + t.ptxName());
        }
        boolean ftz = insn.hasModifier("ftz");
        DirectedRounding.Mode directed = DirectedRounding.mode(MathTypes.rounding(insn));
        if (directed != null && (t == PtxType.F32 || t == PtxType.F64)) {
            Reg d = cx.dst(insn.operands().get(0), t);
            Src a = cx.src(insn.operands().get(1), t);
            Src b = cx.src(insn.operands().get(2), t);
            if (t == PtxType.F32) {
                DirectedRounding.f32(cx, directed, d, a, b, false, ftz);
            } else {
                DirectedRounding.quotientF64(cx, directed, d, a, b);
            }
            return;
        }
        if (t == PtxType.F32) {
            Reg d = cx.dst(insn.operands().get(0), t);
            Src a = cx.src(insn.operands().get(1), t);
            Src b = cx.src(insn.operands().get(2), t);
            if (insn.hasModifier("approx")) {
                approx(m, d, a, b, ftz, false);
            } else if (insn.hasModifier("full")) {
                approx(m, d, a, b, ftz, true);
            } else if ("rn".equals(MathTypes.rounding(insn))) {
                m.ownControl();
                Reg ar = m.r(), br = m.r(), res = m.r();
                m.mov(ar, a);
                m.mov(br, b);
                BasicBlock done = m.newBlock();
                F32Sequences.divRn(m, res, ar, br, ftz, done);
                m.start(done);
                m.mov(d, res);
                m.finish();
            } else {
                throw cx.unsupported("div." + MathTypes.rounding(insn) + ".f32");
            }
            return;
        }
        if (t == PtxType.F64 && "rn".equals(MathTypes.rounding(insn))) {
            Reg d = cx.dst(insn.operands().get(0), t);
            Src a = cx.src(insn.operands().get(1), t);
            Src b = cx.src(insn.operands().get(2), t);
            F64Sequences.divRn(m, d, a, b);
            return;
        }
        throw cx.unsupported(insn.fullName());
    }

    /**
     * div.approx.f32 (scaled for divisors below 2^-126) and div.full.f32 (also scaled for divisors above 2^126). The
     * range tests and the reciprocal depend on the divisor alone: a later division by the same register reuses them
     * ({@link SharedReciprocals}) and scales only its dividend.
     */
    private static void approx(MathEmitter m, Reg d, Src a, Src b, boolean ftz, boolean full) {
        if (ftz && !full) {
            Reg r = m.r();
            m.mufu("RCP", r, b);
            m.fmul("FTZ", d, a, r);
            return;
        }
        LoweringContext cx = m.cx();
        Reg divisor = b.value() instanceof Reg reg && reg.virtual() && !b.neg() && !b.abs() ? reg : null;
        SharedReciprocals shared = cx.reciprocals();
        SharedReciprocals.Scaled known = divisor == null ? null : shared.lookup(divisor, ftz, full);
        m.ownControl();
        String f = ftz ? "FTZ" : "";
        if (known != null) {
            Reg an = m.r();
            m.mov(an, a);
            scaleDividend(m, an, known, f);
            m.fmul(f, d, known.reciprocal(), an);
            m.finish();
            return;
        }
        Reg an = m.r(), bn = m.r(), r = m.r(), big = m.p(), small = m.p();
        m.mov(an, a);
        m.mov(bn, b);
        if (full) {
            m.fsetp(ftz ? "GT.FTZ" : "GT", big, MathEmitter.abs(bn), 0x1p126f);
            m.at(big).fmul(f, bn, bn, 0.25f);
            m.at(big).fmul(f, an, an, 0.25f);
        }
        if (!ftz) {
            m.fsetp("GEU", small, MathEmitter.abs(bn), Float.MIN_NORMAL);
            m.atNot(small).fmul("", bn, bn, 16777216f);
            m.atNot(small).fmul("", an, an, 16777216f);
        }
        m.mufu("RCP", r, bn);
        if (divisor != null && cx.instruction().guard() == null) {
            // recorded before the quotient is written: a division into its own divisor ends the entry at once
            shared.remember(divisor, ftz, full, new SharedReciprocals.Scaled(full ? big : null, ftz ? null : small, r));
        }
        m.fmul(f, d, r, an);
        m.finish();
    }

    /** The dividend's share of the divisor's range scaling: by 1/4 when the divisor was large, 2^24 when tiny. */
    private static void scaleDividend(MathEmitter m, Reg an, SharedReciprocals.Scaled s, String f) {
        if (s.big() != null) {
            m.at(s.big()).fmul(f, an, an, 0.25f);
        }
        if (s.small() != null) {
            m.atNot(s.small()).fmul("", an, an, 16777216f);
        }
    }

    private static void integer(Instruction insn, LoweringContext cx, MathEmitter m, PtxType t, boolean rem)
            throws CompilationException {
        Reg d = cx.dst(insn.operands().get(0), t);
        Src a = cx.src(insn.operands().get(1), t);
        Src b = cx.src(insn.operands().get(2), t);
        boolean signed = MathTypes.isSigned(t);
        m.ownControl();
        switch (MathTypes.bits(t)) {
            case 32 -> {
                if (signed) {
                    IntDivision.signed(m, rem ? null : d, rem ? d : null, a, b);
                } else {
                    IntDivision.unsigned(m, rem ? null : d, rem ? d : null, a, b);
                }
            }
            case 16 -> {
                // widen to 32 bits (the quotient and remainder of the widened operands are the 16-bit ones; the
                // -2^15 / -1 overflow wraps when truncated back)
                Reg aw = m.r(), bw = m.r(), res = m.r();
                widen16(m, aw, a, signed);
                widen16(m, bw, b, signed);
                if (signed) {
                    IntDivision.signed(m, rem ? null : res, rem ? res : null, aw, bw);
                } else {
                    IntDivision.unsigned(m, rem ? null : res, rem ? res : null, aw, bw);
                }
                m.mov(d, res);
            }
            case 64 -> IntDivision64.divide(m, d, a, b, signed, rem);
            default -> throw cx.unsupported(insn.fullName());
        }
        m.finish();
    }

    private static void widen16(MathEmitter m, Reg d, Src s, boolean signed) {
        if (signed) {
            m.op("SGXT", "", d, s, 16);
        } else {
            m.lop3(d, s, 0xffff, MathEmitter.RZ, 0xc0);
        }
    }
}
