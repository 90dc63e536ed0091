package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;
import static org.jptxas.frontend.ptx.lower.MathEmitter.not;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Double-precision IEEE division, reciprocal and square root as ptxas computes them: a MUFU.RCP64H/RSQ64H seed of the
 * high word refined by DFMA Newton steps on a fast path, with exponent-range checks on the high words (FSETP on the
 * high word read as a float, ISETP on biased exponents) selecting an inline slow path that scales the operands,
 * handles zeros, infinities, NaNs and gradual underflow.
 */
final class F64Sequences {
    private static final float EXP_NONZERO = Float.intBitsToFloat(0x100000); // high word with a non-zero exponent
    private static final double TWO_1023 = 0x1p1023;

    private F64Sequences() {
    }

    /** A fresh pair holding {@code s} (a register pair or a 64-bit immediate). */
    static Reg pair(MathEmitter m, Src s) {
        Reg p = m.r2();
        if (s.value() instanceof Reg r) {
            m.mov(p.component(0), r.component(0));
            m.mov(p.component(1), r.component(1));
        } else {
            long bits = ((Imm) s.value()).bits();
            m.mov(p.component(0), (int) bits);
            m.mov(p.component(1), (int) (bits >>> 32));
        }
        return p;
    }

    private static void movPair(MathEmitter m, Reg d, Reg s) {
        m.mov(d.component(0), s.component(0));
        m.mov(d.component(1), s.component(1));
    }

    /** {@code div.rn.f64 d, a, b}. */
    static void divRn(MathEmitter m, Reg d, Src as, Src bs) {
        m.ownControl();
        Reg a = pair(m, as), b = pair(m, bs);
        Reg res = m.r2();
        BasicBlock done = m.newBlock();
        Reg seed = m.r2(), p1 = m.p(), p0 = m.p(), e = m.r2(), r = m.r2(), r2 = m.r2(), q = m.r2(), rem = m.r2();
        m.mov(seed.component(0), 1);
        m.mufu("RCP64H", seed.component(1), b.component(1));
        m.fsetp("GEU", p1, abs(a.component(1)), Float.intBitsToFloat(0x3600000));
        m.dfma("", e, neg(b), seed, 1.0);
        m.dfma("", e, e, e, e);
        m.dfma("", r, seed, e, seed);
        m.dfma("", e, neg(b), r, 1.0);
        m.dfma("", r2, r, e, r);
        m.op("DMUL", "", q, a, r2);
        m.dfma("", rem, neg(b), q, a);
        m.dfma("", res, r2, rem, q);
        Reg t = m.r();
        m.ffma("", t, RZ, b.component(1), res.component(1));
        m.fsetp("GT", "AND", p0, abs(t), EXP_NONZERO, p1);
        m.braIf(p0, false, done);
        divSlow(m, res, a, b, done);
        m.start(done);
        movPair(m, d, res);
        m.finish();
    }

    private static void divSlow(MathEmitter m, Reg res, Reg a, Reg b, BasicBlock done) {
        Reg ah = a.component(1), bh = b.component(1);
        Reg p0 = m.p(), p1 = m.p();
        Reg seed = m.r2(), t = m.r(), c1ca = m.r(), eb = m.r(), bn = m.r2(), ea = m.r(), expA = m.r();
        m.fsetp("GEU", p0, abs(bh), EXP_NONZERO);
        m.mov(seed.component(0), 1);
        m.lop3(t, bh, 0x800fffff, RZ, 0xc0);
        m.mov(c1ca, 0x1ca00000);
        m.lop3(eb, bh, 0x7ff00000, RZ, 0xc0);
        m.lop3(bn.component(1), t, 0x3ff00000, RZ, 0xfc);
        m.mov(bn.component(0), b.component(0));
        m.lop3(ea, ah, 0x7ff00000, RZ, 0xc0);
        m.isetp("GE.U32", p1, ea, eb);
        // a denormal b is scaled by 2^1023 (ptxas: @!P0 DMUL; computed unconditionally here, then selected)
        Reg bs2 = m.r2();
        m.op("DMUL", "", bs2, b, TWO_1023);
        m.atNot(p0).mov(bn.component(0), bs2.component(0));
        m.atNot(p0).mov(bn.component(1), bs2.component(1));
        m.sel(expA, c1ca, 0x63400000, not(p1));
        m.fsetp("GEU", p1, abs(ah), EXP_NONZERO);
        m.mufu("RCP64H", seed.component(1), bn.component(1));
        m.atNot(p0).lop3(eb, bn.component(1), 0x7ff00000, RZ, 0xc0);
        Reg r = m.r2(), e = m.r2();
        m.dfma("", r, seed, neg(bn), 1.0);
        m.dfma("", r, r, r, r);
        m.dfma("", r, seed, r, seed);
        m.dfma("", e, r, neg(bn), 1.0);
        m.dfma("", r, r, e, r);
        Reg an = m.r2(), eaw = m.r();
        m.lop3(an.component(1), expA, 0x800fffff, ah, 0xf8);
        m.mov(eaw, ea);
        m.mov(an.component(0), a.component(0));
        BasicBlock scaled = m.newBlock();
        m.braIf(p1, false, scaled);
        {
            // a is zero or denormal: rebuild its high word with the scaling exponent and subtract the implicit one
            Reg ebx = m.r(), ex = m.r(), one = m.r2();
            m.lop3(ebx, bh, 0x7ff00000, RZ, 0xc0);
            m.mov(one.component(0), RZ);
            m.isetp("GE.U32", p0, ea, ebx);
            m.sel(ex, c1ca, 0x63400000, not(p0));
            m.lop3(ex, ex, 0x80000000, ah, 0xf8);
            m.lop3(one.component(1), ex, 0x100000, RZ, 0xfc);
            // 2*an - one (ptxas: DFMA an, an, 2, -one), as -one * 1 + 2*an: 2*an is exact, so the rounding is the
            // same, and the backends encode this operand shape
            Reg an2 = m.r2(), unit = m.r2();
            m.op("DMUL", "", an2, an, 2.0);
            m.mov(unit.component(0), RZ);
            m.mov(unit.component(1), 0x3ff00000);
            m.dfma("", an, neg(one), unit, an2);
            m.lop3(eaw, an.component(1), 0x7ff00000, RZ, 0xc0);
        }
        m.bra(scaled);
        m.start(scaled);
        Reg eam1 = m.r(), ebm1 = m.r(), q0 = m.r2(), rem = m.r2(), q1 = m.r2();
        m.iadd3(eam1, eaw, -1, RZ);
        m.op("DMUL", "", q0, r, an);
        m.iadd3(ebm1, eb, -1, RZ);
        m.isetp("GT.U32", p0, eam1, 0x7feffffe);
        m.dfma("", rem, q0, neg(bn), an);
        m.isetp("GT.U32", "OR", p0, ebm1, 0x7feffffe, p0);
        m.dfma("", q1, r, rem, q0);
        BasicBlock special = m.newBlock();
        m.braIf(p0, false, special);
        {
            Reg ebb = m.r(), diff = m.r(), sc = m.r(), k = m.r(), scale = m.r2();
            m.lop3(ebb, bh, 0x7ff00000, RZ, 0xc0);
            m.isetp("GE.U32", p0, ea, ebb);
            m.iadd3(diff, ea, neg(ebb), RZ);
            m.sel(sc, c1ca, 0x63400000, not(p0));
            m.op("IMNMX", "", diff, diff, -0x46a00000, not(MathEmitter.PT));
            m.op("IMNMX", "", diff, diff, 0x46a00000, MathEmitter.PT);
            m.iadd3(k, diff, neg(sc), RZ);
            m.mov(scale.component(0), RZ);
            m.iadd3(scale.component(1), k, 0x7fe00000, RZ);
            m.op("DMUL", "", res, q1, scale);
            m.fsetp("GTU", p0, abs(res.component(1)), EXP_NONZERO);
            m.braIf(p0, false, done);
            // the quotient is denormal or zero: round it by hand from the exact remainder's sign
            Reg rem2 = m.r2(), sgn = m.r(), up = m.r2(), nk = m.r2(), chk = m.r2(), lim = m.r(), sh = m.r();
            m.dfma("", rem2, q1, neg(bn), an);
            m.fsetp("NEU", p0, rem2.component(1), RZ);
            m.lop3(sgn, rem2.component(1), 0x80000000, bh, 0x48);
            m.mov(up.component(0), RZ);
            m.lop3(up.component(1), sgn, scale.component(1), RZ, 0xfc);
            m.braIf(p0, true, done);
            m.iadd3(nk.component(1), neg(k), RZ, RZ);
            m.op("DMUL", "RP", up, q1, up);
            m.mov(nk.component(0), RZ);
            m.dfma("", chk, res, neg(nk), q1);
            m.lop3(sh, up.component(1), sgn, RZ, 0x3c);
            m.iadd3(lim, neg(k), -0x43300000, RZ);
            m.fsetp("NEU", p0, abs(chk.component(1)), lim);
            m.op("FSEL", "", res.component(0), up.component(0), res.component(0), not(p0));
            m.op("FSEL", "", res.component(1), sh, res.component(1), not(p0));
            m.bra(done);
        }
        m.start(special);
        {
            BasicBlock aNan = m.newBlock(), bNan = m.newBlock();
            m.dsetp("NAN", p0, a, a);
            m.braIf(p0, false, aNan);
            m.dsetp("NAN", p0, b, b);
            m.braIf(p0, false, bNan);
            m.isetp("NE", p0, eaw, eb);
            m.mov(res.component(0), RZ);
            m.mov(res.component(1), 0xfff80000);
            m.braIf(p0, true, done);
            Reg sign = m.r(), inf = m.r();
            m.isetp("NE", p0, eaw, 0x7ff00000);
            m.lop3(sign, ah, 0x80000000, bh, 0x48);
            m.isetp("EQ", "OR", p0, eb, RZ, not(p0));
            m.lop3(inf, sign, 0x7ff00000, RZ, 0xfc);
            m.sel(res.component(1), inf, sign, p0);
            m.mov(res.component(0), RZ);
            m.bra(done);
            m.start(bNan);
            m.lop3(res.component(1), bh, 0x80000, RZ, 0xfc);
            m.mov(res.component(0), b.component(0));
            m.bra(done);
            m.start(aNan);
            m.lop3(res.component(1), ah, 0x80000, RZ, 0xfc);
            m.mov(res.component(0), a.component(0));
            m.bra(done);
        }
    }

    /** {@code rcp.rn.f64 d, a}. */
    static void rcpRn(MathEmitter m, Reg d, Src xs) {
        m.ownControl();
        Reg x = pair(m, xs), xh = x.component(1);
        Reg res = m.r2(), seed = m.r2(), e = m.r2(), r = m.r2(), e2 = m.r2(), p0 = m.p();
        BasicBlock done = m.newBlock();
        m.mufu("RCP64H", seed.component(1), xh);
        m.iadd3(seed.component(0), xh, 0x300402, RZ);
        m.fsetp("GEU", p0, abs(seed.component(0)), Float.intBitsToFloat(0x400402));
        m.dfma("", e, neg(x), seed, 1.0);
        m.dfma("", e, e, e, e);
        m.dfma("", r, seed, e, seed);
        m.dfma("", e2, neg(x), r, 1.0);
        m.dfma("", res, r, e2, r);
        m.braIf(p0, false, done);
        // slow path: NaN, zero, infinity, denormal inputs and inputs whose reciprocal is denormal
        BasicBlock nan = m.newBlock(), small = m.newBlock();
        Reg ax = m.r(), axm1 = m.r();
        m.dsetp("NAN", p0, x, x);
        m.braIf(p0, false, nan);
        m.lop3(ax, xh, 0x7fffffff, RZ, 0xc0);
        m.iadd3(axm1, ax, -1, RZ);
        m.isetp("GE.U32", p0, axm1, 0x7fefffff);
        // zero -> infinity, infinity -> zero (with the sign): flip the exponent bits
        m.at(p0).lop3(res.component(1), xh, 0x7ff00000, RZ, 0x3c);
        m.at(p0).mov(res.component(0), RZ);
        m.braIf(p0, false, done);
        Reg seedLo = m.r();
        m.iadd3(seedLo, ax, -0x100000, RZ);
        m.isetp("GE.U32", p0, ax, 0x1000001);
        m.braIf(p0, true, small);
        {
            // |x| large: the reciprocal of x/2^1022 scaled back by 2^-1022 with one more correction step
            Reg xs2 = m.r2(), s = m.r2(), f = m.r2(), g = m.r2(), h = m.r2(), k = m.r2(), z = m.r2();
            m.iadd3(xs2.component(1), xh, -0x3fe00000, RZ);
            m.mov(xs2.component(0), x.component(0));
            m.mov(s.component(0), seedLo);
            m.mufu("RCP64H", s.component(1), xs2.component(1));
            m.dfma("", f, neg(xs2), s, 1.0);
            m.dfma("", f, f, f, f);
            m.dfma("", g, s, f, s);
            m.dfma("", h, neg(xs2), g, 1.0);
            m.dfma("", k, g, h, g);
            m.op("DMUL", "", k, k, 0x1p-1022);
            m.dfma("", z, neg(x), k, 1.0);
            m.dfma("", z, z, z, z);
            m.dfma("", res, k, z, k);
            m.bra(done);
        }
        m.start(small);
        {
            // denormal x: scale up by 2^106 first
            Reg xs2 = m.r2(), s = m.r2(), f = m.r2(), g = m.r2(), h = m.r2(), k = m.r2();
            m.op("DMUL", "", xs2, x, 0x1p106);
            m.mov(s.component(0), seedLo);
            m.mufu("RCP64H", s.component(1), xs2.component(1));
            m.dfma("", f, neg(xs2), s, 1.0);
            m.dfma("", f, f, f, f);
            m.dfma("", g, s, f, s);
            m.dfma("", h, neg(xs2), g, 1.0);
            m.dfma("", k, g, h, g);
            m.op("DMUL", "", res, k, 0x1p106);
            m.bra(done);
        }
        m.start(nan);
        m.lop3(res.component(1), xh, 0x80000, RZ, 0xfc);
        m.mov(res.component(0), x.component(0));
        m.bra(done);
        m.start(done);
        movPair(m, d, res);
        m.finish();
    }

    /** {@code sqrt.rn.f64 d, a}. */
    static void sqrtRn(MathEmitter m, Reg d, Src xs) {
        m.ownControl();
        Reg x = pair(m, xs), xh = x.component(1);
        Reg res = m.r2(), half = m.r2(), y = m.r2(), y2 = m.r2(), e = m.r2(), h = m.r2(), y1 = m.r2(), s = m.r2(),
                r = m.r2(), yh = m.r2(), k = m.r(), p0 = m.p();
        BasicBlock done = m.newBlock(), medium = m.newBlock();
        m.mov(half.component(0), RZ);
        m.mov(half.component(1), 0x3fd80000);
        m.mufu("RSQ64H", y.component(1), xh);
        m.iadd3(k, xh, -0x3500000, RZ);
        m.mov(y.component(0), k);
        m.isetp("GE.U32", p0, k, 0x7ca00000);
        m.op("DMUL", "", y2, y, y);
        m.dfma("", e, x, neg(y2), 1.0);
        m.dfma("", h, e, half, 0.5);
        m.op("DMUL", "", y2, y, e);
        m.dfma("", y1, h, y2, y);
        m.op("DMUL", "", s, x, y1);
        m.iadd3(yh.component(1), y1.component(1), -0x100000, RZ);
        m.mov(yh.component(0), y1.component(0));
        m.dfma("", r, s, neg(s), x);
        m.dfma("", res, r, yh, s);
        m.braIf(p0, false, medium);
        m.bra(done);
        m.start(medium);
        {
            BasicBlock special = m.newBlock(), nanOrInf = m.newBlock();
            m.isetp("GE.U32", p0, k, -0x3400000);
            m.braIf(p0, true, special);
            // normal range but close to the edge: round by hand with the directed roundings
            Reg lo = m.r2(), up = m.r2(), t = m.r2(), pc = m.p();
            m.dfma("RM", lo, r, yh, s);
            m.emit("IADD3", "", java.util.List.of(up.component(0), pc, MathEmitter.PT), lo.component(0), 1, RZ);
            m.emit("IADD3", "X", java.util.List.of(up.component(1), MathEmitter.PT, MathEmitter.PT),
                    lo.component(1), RZ, RZ, pc, not(MathEmitter.PT));
            m.dfma("RP", t, neg(lo), up, x);
            m.dsetp("GT", p0, t, RZ);
            m.op("FSEL", "", res.component(0), up.component(0), lo.component(0), p0);
            m.op("FSEL", "", res.component(1), up.component(1), lo.component(1), p0);
            m.bra(done);
            m.start(special);
            m.dsetp("NE", p0, x, RZ);
            m.braIf(p0, true, nanOrInf); // zero: x + x keeps the sign
            m.isetp("GE", p0, xh, RZ);
            m.atNot(p0).mov(res.component(0), RZ);
            m.atNot(p0).mov(res.component(1), 0xfff80000);
            m.braIf(p0, true, done);
            m.isetp("GT", p0, xh, 0x7fefffff);
            m.braIf(p0, false, nanOrInf);
            // denormal: scale by 2^106, take the root, scale back by 2^-53
            Reg xs2 = m.r2(), z = m.r2(), z2 = m.r2(), ez = m.r2(), hz = m.r2(), z1 = m.r2(), sz = m.r2(), zh = m.r2(),
                    rz = m.r2(), half2 = m.r2();
            m.op("DMUL", "", xs2, x, 0x1p106);
            m.mov(z.component(0), RZ);
            m.mov(half2.component(1), 0x3fd80000);
            m.mov(half2.component(0), RZ);
            m.mufu("RSQ64H", z.component(1), xs2.component(1));
            m.op("DMUL", "", z2, z, z);
            m.dfma("", ez, xs2, neg(z2), 1.0);
            m.dfma("", hz, ez, half2, 0.5);
            m.op("DMUL", "", z2, z, ez);
            m.dfma("", z1, hz, z2, z);
            m.op("DMUL", "", sz, xs2, z1);
            m.iadd3(zh.component(1), z1.component(1), -0x100000, RZ);
            m.mov(zh.component(0), z1.component(0));
            m.dfma("", rz, sz, neg(sz), xs2);
            m.dfma("", res, zh, rz, sz);
            m.iadd3(res.component(1), res.component(1), -0x3500000, RZ);
            m.bra(done);
            m.start(nanOrInf);
            m.op("DADD", "", res, x, x);
            m.bra(done);
        }
        m.start(done);
        movPair(m, d, res);
        m.finish();
    }

    /** {@code rsqrt.approx.f64 d, a}: one Newton step from the RSQ64H seed; special inputs handled separately. */
    static void rsqrtApprox(MathEmitter m, Reg d, Src xs) {
        m.ownControl();
        Reg x = pair(m, xs), xh = x.component(1);
        Reg res = m.r2(), k = m.r(), p0 = m.p();
        BasicBlock done = m.newBlock();
        m.iadd3(k, xh, -0x100000, RZ);
        m.isetp("GE.U32", p0, k, 0x7fe00000);
        rsqrtStep(m, res, x);
        m.braIf(p0, true, done);
        BasicBlock zero = m.newBlock(), nanIn = m.newBlock();
        Reg sign = m.r();
        m.dsetp("NEU", p0, x, RZ);
        m.lop3(sign, xh, 0x80000000, RZ, 0xc0);
        m.braIf(p0, true, zero);
        m.dsetp("NAN", p0, x, x);
        m.braIf(p0, false, nanIn);
        m.isetp("NE", p0, sign, RZ);
        m.at(p0).mov(res.component(0), RZ);
        m.at(p0).mov(res.component(1), 0xfff80000);
        m.braIf(p0, false, done);
        // not infinite: |x|'s high word is not 0x7ff00000 or its low word is not zero (no f64 immediate compares)
        Reg ax = m.r();
        m.lop3(ax, xh, 0x7fffffff, RZ, 0xc0);
        m.isetp("NE.U32", p0, ax, 0x7ff00000);
        m.isetp("NE.U32", "OR", p0, x.component(0), RZ, p0);
        m.atNot(p0).mov(res.component(0), RZ);
        m.atNot(p0).mov(res.component(1), RZ);
        m.braIf(p0, true, done);
        Reg xs2 = m.r2();
        m.op("DMUL", "", xs2, x, 0x1p54);
        rsqrtStep(m, res, xs2);
        m.op("DMUL", "", res, res, 0x1p27);
        m.bra(done);
        m.start(nanIn);
        m.op("DADD", "", res, x, x);
        m.bra(done);
        m.start(zero);
        m.lop3(res.component(1), sign, 0x7ff00000, RZ, 0xfc);
        m.mov(res.component(0), RZ);
        m.bra(done);
        m.start(done);
        movPair(m, d, res);
        m.finish();
    }

    private static void rsqrtStep(MathEmitter m, Reg res, Reg x) {
        Reg y = m.r2(), y2 = m.r2(), e = m.r2(), c = m.r2(), h = m.r2(), ye = m.r2();
        m.mov(y.component(0), RZ);
        m.mov(c.component(0), RZ);
        m.mov(c.component(1), 0x3fd80000);
        m.mufu("RSQ64H", y.component(1), x.component(1));
        m.op("DMUL", "", y2, y, y);
        m.dfma("", e, x, neg(y2), 1.0);
        m.dfma("", h, e, c, 0.5);
        m.op("DMUL", "", ye, y, e);
        m.dfma("", res, h, ye, y);
    }

    static void unsupported(MathEmitter m, String what) throws CompilationException {
        throw m.cx().unsupported(what);
    }
}
