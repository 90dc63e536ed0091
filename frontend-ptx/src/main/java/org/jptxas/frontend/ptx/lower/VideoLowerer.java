package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.check.VideoSelectors;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * The video instructions, as ptxas expands them into integer ALU code (there is no video unit on sm_75+).
 * <ul>
 *   <li>Scalar {@code vadd}, {@code vsub}, {@code vabsdiff}, {@code vmin}, {@code vmax}, {@code vshl}, {@code vshr}
 *       and {@code vset}: the operands sign- or zero-extended by their types, the operation on 64-bit register pairs,
 *       the optional {@code .sat} clamp, then the optional secondary {@code .add}/{@code .min}/{@code .max} with
 *       {@code c}, with ptxas's widths and clamps where they depart from the ISA's pseudocode ({@link Width}).
 *   <li>SIMD {@code vadd2/4}, {@code vsub2/4}, {@code vavrg2/4}, {@code vabsdiff2/4}, {@code vmin2/4},
 *       {@code vmax2/4} and {@code vset2/4}: each half-word or byte lane extended to 32 bits (PRMT), the operation,
 *       the optional per-lane clamp, then either the lanes packed into {@code d} or, with {@code .add}, their sum
 *       added to {@code c}.
 * </ul>
 * Operand selectors ({@code a.b1}, {@code d.h0}, masks) are refused by name: ptxas's expansion of them has quirks
 * of its own (a byte destination takes the result's low byte, a high half-word destination the result's high half,
 * and .sat clamps to widths that differ by operation) not modelled yet.
 * <p>{@code vmad} follows ptxas: IMAD.WIDE of a and b as signed words onto c's sign extension whatever the types, then
 * {@code .po}'s +1, the {@code .shr7}/{@code .shr15} shift of the 64-bit pair (arithmetic when a or b is signed) and
 * the {@code .sat} clamp to s32 (a or b signed, or an operand negated) or u32; a negated product or c is
 * one's-complemented and 1 added.
 */
@AutoService(InstructionLowerer.class)
public final class VideoLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset", "vadd2", "vsub2", "vavrg2",
                "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4",
                "vset4", "vmad");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        for (Operand o : insn.operands()) {
            String selector = VideoSelectors.of(o);
            if (selector != null) {
                throw cx.unsupported("video selector ." + selector);
            }
        }
        String op = insn.opcode();
        if (op.equals("vmad")) {
            vmad(insn, cx);
            return;
        }
        if (op.endsWith("2") || op.endsWith("4")) {
            simd(insn, cx, op.substring(0, op.length() - 1), op.endsWith("2") ? 2 : 4);
        } else {
            scalar(insn, cx, op);
        }
    }

    // ---------------------------------------------------------------- scalar

    private static void scalar(Instruction insn, LoweringContext cx, String op) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        List<PtxType> types = MathTypes.types(insn);
        boolean vset = op.equals("vset");
        // vset.atype.btype; the others dtype.atype.btype
        boolean dSigned = !vset && MathTypes.isSigned(types.get(0));
        boolean aSigned = MathTypes.isSigned(types.get(vset ? 0 : 1));
        boolean bSigned = MathTypes.isSigned(types.get(vset ? 1 : 2));
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Src a = cx.src(Ptx.op(insn, 1), PtxType.B32);
        Src b = cx.src(Ptx.op(insn, 2), PtxType.B32);
        Reg ta = extend(m, a, aSigned);
        Reg tb = extend(m, b, bSigned);
        Reg t;
        switch (op) {
            case "vadd" -> t = add(cx, m, ta, tb, false);
            case "vsub" -> t = add(cx, m, ta, tb, true);
            case "vabsdiff" -> {
                Reg ab = add(cx, m, ta, tb, true), ba = add(cx, m, tb, ta, true);
                t = select(m, ba, ab, negative(m, ab));
            }
            case "vmin", "vmax" -> {
                Reg lt = negative(m, add(cx, m, ta, tb, true));
                t = op.equals("vmin") ? select(m, ta, tb, lt) : select(m, tb, ta, lt);
            }
            case "vshl", "vshr" -> t = shift(m, insn, ta, b, op.equals("vshl"));
            case "vset" -> t = compare(cx, m, insn, ta, tb);
            default -> throw cx.unsupported(insn.fullName());
        }
        Width w = Width.of(op);
        String op2 = insn.hasModifier("add") ? "add" : insn.hasModifier("min") ? "min"
                : insn.hasModifier("max") ? "max" : null;
        boolean compared = "min".equals(op2) || "max".equals(op2);
        if (insn.hasModifier("sat") && !vset) {
            t = signExtend(m, t, 34);
            t = dSigned ? saturateSigned(m, t) : w.unsignedClampsBelowOnly ? clampBelowZero(m, t)
                    : saturateUnsigned(m, t);
            if (compared) {
                t = signExtend(m, t, w.satWidth);
            }
        } else if (compared) {
            t = signExtend(m, t, w.plainWidth);
        }
        if (op2 == null) {
            m.mov(d, t.component(0));
            return;
        }
        Src c = cx.src(Ptx.op(insn, 3), PtxType.B32);
        if (op2.equals("add")) {
            m.iadd3(d, t.component(0), c, RZ);
            return;
        }
        boolean cSigned = vset ? aSigned : dSigned;
        Reg tc = extend(m, c, cSigned);
        Reg lt = less(m, t, tc, cSigned);
        Reg r = op2.equals("min") ? select(m, t, tc, lt) : select(m, tc, t, lt);
        m.mov(d, r.component(0));
    }

    private static void vmad(Instruction insn, LoweringContext cx) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        List<PtxType> types = MathTypes.types(insn);
        if (types.size() != 3) {
            throw cx.unsupported(insn.fullName());
        }
        Operand oa = Ptx.op(insn, 1), ob = Ptx.op(insn, 2), oc = Ptx.op(insn, 3);
        boolean negA = negatedRegister(oa) != null, negB = negatedRegister(ob) != null;
        boolean negC = negatedRegister(oc) != null;
        // ptxas: "Operand negation limited to either (source A xor source B) or source C", and none with .po
        if (negA && negB || (negA || negB) && negC || (negA || negB || negC) && insn.hasModifier("po")) {
            throw cx.unsupported(insn.fullName() + " with these negated operands");
        }
        boolean negProduct = negA || negB;
        boolean signed = MathTypes.isSigned(types.get(1)) || MathTypes.isSigned(types.get(2)) || negProduct || negC;
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Reg a = m.r(), b = m.r();
        m.mov(a, cx.src(negA ? negatedRegister(oa) : oa, PtxType.B32));
        m.mov(b, cx.src(negB ? negatedRegister(ob) : ob, PtxType.B32));
        Src c32 = cx.src(negC ? negatedRegister(oc) : oc, PtxType.B32);
        if (negC) {
            Reg inverted = m.r();
            m.lop3(inverted, RZ, c32, RZ, 0x33);
            c32 = Src.of(inverted);
        }
        Reg c = extend(m, c32, true);
        Reg t = m.r2();
        if (negProduct) {
            Reg zero = m.r2();
            m.mov(zero.component(0), RZ);
            m.mov(zero.component(1), RZ);
            m.emit("IMAD_WIDE", "", List.of(t), a, b, zero);
            Reg inverted = m.r2();
            m.lop3(inverted.component(0), RZ, t.component(0), RZ, 0x33);
            m.lop3(inverted.component(1), RZ, t.component(1), RZ, 0x33);
            t = add(cx, m, inverted, c, false);
        } else {
            m.emit("IMAD_WIDE", "", List.of(t), a, b, c);
        }
        if (insn.hasModifier("po") || negProduct || negC) {
            Reg one = m.r2();
            m.mov(one.component(0), m.imm(1));
            m.mov(one.component(1), RZ);
            t = add(cx, m, t, one, false);
        }
        int shift = insn.hasModifier("shr7") ? 7 : insn.hasModifier("shr15") ? 15 : 0;
        if (shift != 0) {
            Reg s = m.r2();
            m.shf(signed ? "R.S64" : "R.U64", s.component(0), t.component(0), shift, t.component(1));
            m.shf(signed ? "R.S32.HI" : "R.U32.HI", s.component(1), RZ, shift, t.component(1));
            t = s;
        }
        if (insn.hasModifier("sat")) {
            t = signed ? saturateSigned(m, t) : saturateUnsigned(m, t);
        }
        m.mov(d, t.component(0));
    }

    /** The register of a negated register operand ({@code -r}), else null. */
    private static Operand negatedRegister(Operand o) {
        return o instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.SymbolRef r
                ? r : null;
    }

    /**
     * ptxas's widths for a scalar video result (see the simulator's {@code VideoSemantics}, which the oracle test
     * holds to ptxas's code): the sign-extension width entering {@code .min}/{@code .max} without and after
     * {@code .sat}, and whether {@code .sat} to an unsigned type clamps only below zero.
     */
    private enum Width {
        WRAPPING(32, true, 32), ABSDIFF(34, true, 34), MINMAX(34, false, 34), SHL(64, false, 32),
        SHR(34, false, 32);

        final int plainWidth;
        final boolean unsignedClampsBelowOnly;
        final int satWidth;

        Width(int plainWidth, boolean unsignedClampsBelowOnly, int satWidth) {
            this.plainWidth = plainWidth;
            this.unsignedClampsBelowOnly = unsignedClampsBelowOnly;
            this.satWidth = satWidth;
        }

        static Width of(String op) {
            return switch (op) {
                case "vadd", "vsub" -> WRAPPING;
                case "vabsdiff" -> ABSDIFF;
                case "vshl" -> SHL;
                case "vshr" -> SHR;
                default -> MINMAX;
            };
        }
    }

    /** A 64-bit pair sign-extended from its low {@code width} bits (32, 34 or 64). */
    private static Reg signExtend(MathEmitter m, Reg t, int width) {
        if (width == 64) {
            return t;
        }
        Reg s = m.r2();
        m.mov(s.component(0), t.component(0));
        if (width == 32) {
            m.shf("R.S32.HI", s.component(1), RZ, 31, t.component(0));
        } else {
            Reg up = m.r();
            m.shf("L.U32", up, t.component(1), 64 - width, RZ);
            m.shf("R.S32.HI", s.component(1), RZ, 64 - width, up);
        }
        return s;
    }

    /** {@code x < y} on 64-bit pairs: unsigned on the low halves, then .EX on the high halves. */
    private static Reg less(MathEmitter m, Reg x, Reg y, boolean signed) {
        Reg low = m.p(), p = m.p();
        m.isetp("LT.U32", low, x.component(0), y.component(0));
        m.emit("ISETP", signed ? "LT.AND.EX" : "LT.U32.AND.EX", List.of(p, MathEmitter.PT), x.component(1),
                y.component(1), MathEmitter.PT, low);
        return p;
    }

    /** A negative 64-bit value becomes 0; others stay (ptxas's unsigned .sat of vadd, vsub and vabsdiff). */
    private static Reg clampBelowZero(MathEmitter m, Reg t) {
        Reg neg = negative(m, t);
        Reg s = m.r2();
        m.sel(s.component(0), RZ, t.component(0), neg);
        m.sel(s.component(1), RZ, t.component(1), neg);
        return s;
    }

    /** A 32-bit value as a 64-bit pair, sign- or zero-extended. */
    private static Reg extend(MathEmitter m, Src x, boolean signed) {
        Reg p = m.r2();
        m.mov(p.component(0), x);
        if (signed) {
            m.shf("R.S32.HI", p.component(1), RZ, 31, p.component(0));
        } else {
            m.mov(p.component(1), RZ);
        }
        return p;
    }

    private static Reg add(LoweringContext cx, MathEmitter m, Reg x, Reg y, boolean subtract) {
        Reg s = m.r2();
        IntArith.add64(cx, s, Src.of(x), Src.of(y), subtract);
        return s;
    }

    /** Whether a 64-bit pair is negative. */
    private static Reg negative(MathEmitter m, Reg x) {
        Reg p = m.p();
        m.isetp("LT", p, x.component(1), RZ);
        return p;
    }

    /** {@code p ? x : y}, both halves. */
    private static Reg select(MathEmitter m, Reg x, Reg y, Reg p) {
        Reg s = m.r2();
        m.sel(s.component(0), x.component(0), y.component(0), p);
        m.sel(s.component(1), x.component(1), y.component(1), p);
        return s;
    }

    /** vshl/vshr: the count clamped to 32 ({@code .clamp}) or taken modulo 32 ({@code .wrap}). */
    private static Reg shift(MathEmitter m, Instruction insn, Reg ta, Src b, boolean left) {
        Reg n = m.r();
        if (insn.hasModifier("wrap")) {
            m.lop3(n, b, 31, RZ, 0xc0);
        } else {
            Reg p = m.p();
            m.mov(n, b);
            m.isetp("LT.U32", p, n, 32);
            m.sel(n, n, 32, p);
        }
        Reg s = m.r2();
        if (left) {
            m.shf("L.U64.HI", s.component(1), ta.component(0), n, ta.component(1));
            m.shf("L.U32", s.component(0), ta.component(0), n, RZ);
        } else {
            m.shf("R.S64", s.component(0), ta.component(0), n, ta.component(1));
            m.shf("R.S32.HI", s.component(1), RZ, n, ta.component(1));
        }
        return s;
    }

    /** vset: 1 when {@code ta cmp tb} holds (compared as 64-bit values), else 0. */
    private static Reg compare(LoweringContext cx, MathEmitter m, Instruction insn, Reg ta, Reg tb)
            throws CompilationException {
        Reg diff = add(cx, m, ta, tb, true);
        Reg neg = negative(m, diff);
        Reg any = m.r(), zero = m.p();
        m.lop3(any, diff.component(0), diff.component(1), RZ, 0xfc);
        m.isetp("EQ", zero, any, RZ);
        String cmp = insn.modifiers().stream().filter(s -> Set.of("eq", "ne", "lt", "le", "gt", "ge").contains(s))
                .findFirst().orElseThrow(() -> new IllegalStateException("vset without a comparison"));
        Reg p = m.p();
        switch (cmp) {
            case "eq" -> p = zero;
            case "ne" -> m.isetp("NE", p, any, RZ);
            case "lt" -> p = neg;
            case "ge" -> m.isetp("GE", p, diff.component(1), RZ);
            // le: tb - ta >= 0; gt: tb - ta < 0
            case "le" -> m.isetp("GE", p, add(cx, m, tb, ta, true).component(1), RZ);
            default -> p = negative(m, add(cx, m, tb, ta, true));
        }
        Reg t = m.r2();
        m.sel(t.component(0), m.imm(1), RZ, p);
        m.mov(t.component(1), RZ);
        return t;
    }

    /** Clamps a 64-bit value to the s32 range; the high word is the low word's sign again. */
    private static Reg saturateSigned(MathEmitter m, Reg t) {
        Reg lo = t.component(0), hi = t.component(1);
        Reg fits = m.p(), neg = m.p(), ext = m.r(), bound = m.r();
        m.shf("R.S32.HI", ext, RZ, 31, lo);
        m.isetp("EQ", fits, hi, ext);
        m.isetp("LT", neg, hi, RZ);
        m.sel(bound, m.imm(0x80000000), 0x7fffffff, neg);
        Reg s = m.r2();
        m.sel(s.component(0), lo, bound, fits);
        m.shf("R.S32.HI", s.component(1), RZ, 31, s.component(0));
        return s;
    }

    /** Clamps a 64-bit value to the u32 range; the high word is zero. */
    private static Reg saturateUnsigned(MathEmitter m, Reg t) {
        Reg lo = t.component(0), hi = t.component(1);
        Reg fits = m.p(), neg = m.p(), bound = m.r();
        m.isetp("EQ", fits, hi, RZ);
        m.isetp("LT", neg, hi, RZ);
        m.sel(bound, m.imm(0), 0xffffffff, neg);
        Reg s = m.r2();
        m.sel(s.component(0), lo, bound, fits);
        m.mov(s.component(1), RZ);
        return s;
    }

    // ---------------------------------------------------------------- SIMD

    private static void simd(Instruction insn, LoweringContext cx, String op, int lanes) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        List<PtxType> types = MathTypes.types(insn);
        boolean vset = op.equals("vset");
        boolean dSigned = !vset && MathTypes.isSigned(types.get(0));
        boolean aSigned = MathTypes.isSigned(types.get(vset ? 0 : 1));
        boolean bSigned = MathTypes.isSigned(types.get(vset ? 1 : 2));
        int bits = 32 / lanes;
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Src a = cx.src(Ptx.op(insn, 1), PtxType.B32);
        Src b = cx.src(Ptx.op(insn, 2), PtxType.B32);
        Src c = cx.src(Ptx.op(insn, 3), PtxType.B32);
        boolean accumulate = insn.hasModifier("add");
        boolean sat = insn.hasModifier("sat");
        String cmp = vset ? insn.modifiers().stream()
                .filter(s -> Set.of("eq", "ne", "lt", "le", "gt", "ge").contains(s)).findFirst().orElseThrow() : null;
        Reg[] t = new Reg[lanes];
        for (int i = 0; i < lanes; i++) {
            Reg va = lane(m, a, i, bits, aSigned);
            Reg vb = lane(m, b, i, bits, bSigned);
            Reg r = m.r();
            switch (op) {
                case "vadd" -> m.iadd3(r, va, vb, RZ);
                case "vsub" -> m.iadd3(r, va, MathEmitter.neg(vb), RZ);
                case "vavrg" -> {
                    // (va + vb + 1) >> 1 when the sum is non-negative, else (va + vb) >> 1 (arithmetic shifts)
                    Reg sum = m.r(), p = m.p(), up = m.r();
                    m.iadd3(sum, va, vb, RZ);
                    m.isetp("GE", p, sum, RZ);
                    m.sel(up, m.imm(1), RZ, p);
                    m.iadd3(sum, sum, up, RZ);
                    m.shf("R.S32.HI", r, RZ, 1, sum);
                }
                case "vabsdiff" -> {
                    Reg x = m.r(), y = m.r(), p = m.p();
                    m.iadd3(x, va, MathEmitter.neg(vb), RZ);
                    m.iadd3(y, vb, MathEmitter.neg(va), RZ);
                    m.isetp("LT", p, x, RZ);
                    m.sel(r, y, x, p);
                }
                case "vmin", "vmax" -> {
                    Reg p = m.p();
                    m.isetp("LT", p, va, vb);
                    if (op.equals("vmin")) {
                        m.sel(r, va, vb, p);
                    } else {
                        m.sel(r, vb, va, p);
                    }
                }
                case "vset" -> {
                    Reg p = m.p();
                    m.isetp(cmp.toUpperCase(), p, va, vb);
                    m.sel(r, m.imm(1), RZ, p);
                }
                default -> throw cx.unsupported(insn.fullName());
            }
            if (sat && !vset) {
                r = clampLane(m, r, bits, dSigned);
            }
            t[i] = r;
        }
        if (accumulate) {
            Reg sum = m.r();
            m.mov(sum, c);
            for (Reg r : t) {
                m.iadd3(sum, sum, r, RZ);
            }
            m.mov(d, sum);
            return;
        }
        if (lanes == 2) {
            m.op("PRMT", "", d, t[0], 0x5410, t[1]);
        } else {
            Reg lo = m.r(), hi = m.r();
            m.op("PRMT", "", lo, t[0], 0x0040, t[1]);
            m.op("PRMT", "", hi, t[2], 0x0040, t[3]);
            m.op("PRMT", "", d, lo, 0x5410, hi);
        }
    }

    /** Lane {@code i} ({@code bits} wide) of {@code x}, sign- or zero-extended to 32 bits (PRMT). */
    private static Reg lane(MathEmitter m, Src x, int i, int bits, boolean signed) {
        int bytes = bits / 8;
        int first = i * bytes;
        int top = first + bytes - 1;
        int sel = 0;
        for (int k = 0; k < 4; k++) {
            int nib = k < bytes ? first + k : signed ? 8 | top : 4;
            sel |= nib << (4 * k);
        }
        Reg r = m.r();
        Object src = x.value() instanceof Reg ? x : m.imm(x);
        m.op("PRMT", "", r, src, sel, RZ);
        return r;
    }

    /** Clamps a lane result to the lane type's range. */
    private static Reg clampLane(MathEmitter m, Reg r, int bits, boolean signed) {
        int max = signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
        int min = signed ? -(1 << (bits - 1)) : 0;
        Reg hiP = m.p(), loP = m.p(), x = m.r(), y = m.r();
        m.isetp("GT", hiP, r, max);
        m.sel(x, m.imm(max), r, hiP);
        m.isetp("LT", loP, x, min);
        m.sel(y, m.imm(min), x, loP);
        return y;
    }
}
