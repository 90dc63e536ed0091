package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.PT;
import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;

import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Reg;

/**
 * The single-precision sequences ptxas uses for IEEE division, reciprocal and square root: a MUFU estimate refined by
 * FFMA Newton steps on a fast path, and a slow path (for division a subroutine of the kernel,
 * {@link SlowPathSubroutines}, as ptxas has it; the others inline in their own blocks) for operands whose exponents the fast path cannot handle exactly. Every method needs
 * {@link MathEmitter#ownControl()} and leaves the emitter in a block that falls into {@code done} only through the
 * branches it emits; each returns with the insertion point in the block after its last path.
 */
final class F32Sequences {
    private static final float INF = Float.POSITIVE_INFINITY;
    private static final int CANONICAL_NAN = 0x7fffffff;
    private static final float TWO_POW_64 = 0x1p64f;

    private F32Sequences() {
    }

    /** {@code div.rn.f32} ({@code ftz} for {@code div.rn.ftz.f32}): writes {@code res} on every path, then branches to done. */
    static void divRn(MathEmitter m, Reg res, Reg a, Reg b, boolean ftz, BasicBlock done) {
        Reg r = m.r();
        Reg fchk = m.p();
        m.mufu("RCP", r, b);
        m.emit("FCHK", "", java.util.List.of(fchk), a, b);
        Reg e = m.r();
        m.ffma("", e, neg(b), r, 1.0f);
        Reg r1 = m.r();
        m.ffma("", r1, r, e, r);
        Reg q = m.r();
        m.ffma("", q, a, r1, RZ);
        Reg rem = m.r();
        m.ffma("", rem, neg(b), q, a);
        m.ffma("", res, r1, rem, q);
        m.braIf(fchk, true, done);
        // the slow path is a subroutine of the kernel, called from every division (as ptxas has it)
        SlowPathSubroutines.call(m, ftz ? SlowPathSubroutines.Kind.DIV_RN_FTZ_F32 : SlowPathSubroutines.Kind.DIV_RN_F32,
                res, a, b);
        m.bra(done);
    }

    /** The body of {@link SlowPathSubroutines}' division: the slow path alone, ending in a branch to done. */
    static void divRnSlowPath(MathEmitter m, Reg res, Reg a, Reg b, boolean ftz, BasicBlock done) {
        if (ftz) {
            divRnSlowFtz(m, res, a, b, done);
        } else {
            divRnSlow(m, res, a, b, done);
        }
    }

    /** The slow path of div.rn.f32: scales both operands to [1,2), divides, and rebuilds the exponent (with gradual underflow). */
    private static void divRnSlow(MathEmitter m, Reg res, Reg a, Reg b, BasicBlock done) {
        BasicBlock scaled = m.newBlock(), nanIn = m.newBlock(), invalid = m.newBlock(), zero = m.newBlock(),
                inf = m.newBlock();
        Reg eb = m.r(), ea = m.r(), an = m.r(), bn = m.r(), ebm1 = m.r(), eam1 = m.r(), adj = m.r();
        m.shf("R.U32.HI", eb, RZ, 0x17, b);
        m.mov(an, a);
        m.shf("R.U32.HI", ea, RZ, 0x17, a);
        m.mov(bn, b);
        m.lop3(eb, eb, 0xff, RZ, 0xc0);
        m.lop3(ea, ea, 0xff, RZ, 0xc0);
        m.iadd3(ebm1, eb, -1, RZ);
        m.iadd3(eam1, ea, -1, RZ);
        Reg p0 = m.p(), p1 = m.p(), p2 = m.p();
        m.isetp("GT.U32", p0, ebm1, 0xfd);
        m.isetp("GT.U32", "OR", p0, eam1, 0xfd, p0);
        m.atNot(p0).mov(adj, RZ);
        m.braIf(p0, true, scaled);
        m.fsetp("GTU.FTZ", p0, abs(a), INF);
        m.fsetp("GTU.FTZ", p1, abs(b), INF);
        m.plop3(p0, p0, p1, PT, 0xa8);
        m.braIf(p0, false, nanIn);
        m.lop3Test(p0, bn, 0x7fffffff, an, 0xc8);
        m.braIf(p0, true, invalid);
        // inf / inf is invalid (ptxas: @!P1 BRA !P2 on the two "not infinite" tests)
        Reg bothInf = m.p();
        m.fsetp("NEU.FTZ", p2, abs(a), INF);
        m.fsetp("NEU.FTZ", p1, abs(b), INF);
        m.plop3(bothInf, p1, p2, PT, 0x02);
        m.braIf(bothInf, false, invalid);
        m.fsetp("NEU.FTZ", p1, abs(b), INF);
        m.fsetp("NEU.FTZ", p0, abs(a), INF);
        m.lop3Test(p2, an, 0x7fffffff, RZ, 0xc0);
        m.plop3(p1, p1, p2, PT, 0x2a);
        m.braIf(p1, false, zero);
        m.lop3Test(p1, bn, 0x7fffffff, RZ, 0xc0);
        m.plop3(p0, p0, p1, PT, 0x2a);
        m.braIf(p0, false, inf);
        m.isetp("GE", p0, eam1, RZ);
        m.isetp("GE", p1, ebm1, RZ);
        m.at(p0).mov(adj, RZ);
        m.atNot(p0).mov(adj, -0x40);
        m.atNot(p0).ffma("", an, a, TWO_POW_64, RZ);
        m.atNot(p1).ffma("", bn, b, TWO_POW_64, RZ);
        m.atNot(p1).iadd3(adj, adj, 0x40, RZ);
        m.bra(scaled);

        m.start(scaled);
        Reg t = m.r(), eaUnb = m.r(), bs = m.r(), ediff = m.r(), as = m.r(), rc = m.r(), nb = m.r();
        m.lea(t, eb, 0xc0800000, 0x17);
        m.iadd3(eaUnb, ea, -0x7f, RZ);
        m.iadd3(bs, bn, neg(t), RZ);
        m.iadd3(ediff, eaUnb, 0x7f, neg(eb));
        m.imad(as, eaUnb, -0x800000, an);
        m.mufu("RCP", rc, bs);
        m.fadd("FTZ", nb, neg(bs), neg(RZ));
        m.iadd3(ediff, ediff, adj, RZ);
        Reg e1 = m.r(), r1 = m.r(), q0 = m.r(), rem0 = m.r(), q1 = m.r(), rem1 = m.r(), q = m.r();
        m.ffma("", e1, rc, nb, 1.0f);
        m.ffma("", r1, rc, e1, rc);
        m.ffma("", q0, as, r1, RZ);
        m.ffma("", rem0, nb, q0, as);
        m.ffma("", q1, r1, rem0, q0);
        m.ffma("", rem1, nb, q1, as);
        m.ffma("", q, r1, rem1, q1);
        Reg eq = m.r(), e = m.r(), em1 = m.r();
        m.shf("R.U32.HI", eq, RZ, 0x17, q);
        m.lop3(eq, eq, 0xff, RZ, 0xc0);
        m.iadd3(e, eq, ediff, RZ);
        m.iadd3(em1, e, -1, RZ);
        BasicBlock normal = m.newBlock(), overflow = m.newBlock();
        m.isetp("GE.U32", p0, em1, 0xfe);
        m.braIf(p0, true, normal);
        m.isetp("GT", p0, e, 0xfe);
        m.braIf(p0, false, overflow);
        // Underflow: below 2^-149 the sign alone; otherwise shift the 24-bit significand right, rounding to nearest even
        // with the sticky bit from the shifted-out bits and from the inexactness of the quotient itself.
        m.lop3(res, q, 0x80000000, RZ, 0xc0);
        m.isetp("GE", p0, e, -0x18);
        m.braIf(p0, true, done);
        Reg qz = m.r(), sh = m.r(), qm = m.r(), mant = m.r(), qp = m.r(), negE = m.r(), lost = m.r(), rs = m.r(),
                kept = m.r(), half = m.r(), rb = m.r();
        m.ffma("RZ", qz, r1, rem1, q1);
        m.iadd3(sh, e, 0x20, RZ);
        m.ffma("RM", qm, r1, rem1, q1);
        m.isetp("NE", p2, e, RZ);
        m.lop3(mant, qz, 0x7fffff, RZ, 0xc0);
        m.ffma("RP", qp, r1, rem1, q1);
        m.isetp("NE", p1, e, RZ);
        m.iadd3(negE, neg(e), RZ, RZ);
        m.lop3(mant, mant, 0x800000, RZ, 0xfc);
        m.fsetp("NEU.FTZ", p0, qp, qm);
        m.shf("L.U32", lost, mant, sh, RZ);
        m.sel(rs, negE, RZ, p2);
        m.isetp("NE", "AND", p1, lost, RZ, p1);
        m.shf("R.U32.HI", kept, RZ, rs, mant);
        m.plop3(p0, p0, p1, PT, 0xa8);
        m.shf("R.U32.HI", half, RZ, 1, kept);
        m.sel(rb, RZ, 1, MathEmitter.not(p0));
        m.lop3(rb, rb, 1, half, 0xf8);
        m.lop3(rb, rb, kept, RZ, 0xc0);
        m.iadd3(rb, half, rb, RZ);
        m.lop3(res, rb, res, RZ, 0xfc);
        m.bra(done);

        m.start(overflow);
        m.lop3(res, q, 0x80000000, RZ, 0xc0);
        m.lop3(res, res, 0x7f800000, RZ, 0xfc);
        m.bra(done);

        m.start(normal);
        m.imad(res, ediff, 0x800000, q);
        m.bra(done);

        emitSpecialQuotients(m, res, a, b, inf, zero, invalid, nanIn, done);
    }

    /** The slow path of div.rn.ftz.f32: denormal operands and results are zeros. */
    private static void divRnSlowFtz(MathEmitter m, Reg res, Reg a, Reg b, BasicBlock done) {
        BasicBlock scaled = m.newBlock(), nanIn = m.newBlock(), invalid = m.newBlock(), zero = m.newBlock(),
                inf = m.newBlock();
        Reg eb = m.r(), ea = m.r(), ebm1 = m.r(), eam1 = m.r();
        m.shf("R.U32.HI", eb, RZ, 0x17, b);
        m.shf("R.U32.HI", ea, RZ, 0x17, a);
        m.lop3(eb, eb, 0xff, RZ, 0xc0);
        m.lop3(ea, ea, 0xff, RZ, 0xc0);
        m.iadd3(ebm1, eb, -1, RZ);
        m.iadd3(eam1, ea, -1, RZ);
        Reg p0 = m.p(), p1 = m.p(), p2 = m.p(), p3 = m.p(), both = m.p();
        m.isetp("GT.U32", p0, ebm1, 0xfd);
        m.isetp("GT.U32", "OR", p0, eam1, 0xfd, p0);
        m.braIf(p0, true, scaled);
        m.fsetp("GTU.FTZ", p0, abs(a), INF);
        m.fsetp("GTU.FTZ", p1, abs(b), INF);
        m.plop3(p0, p0, p1, PT, 0xa8);
        m.braIf(p0, false, nanIn);
        // 0/0 and inf/inf are invalid (both "non-zero" tests false, or both "not infinite" tests false)
        m.fsetp("NEU.FTZ", p2, a, RZ);
        m.fsetp("NEU.FTZ", p1, b, RZ);
        m.plop3(both, p1, p2, PT, 0x02);
        m.braIf(both, false, invalid);
        m.fsetp("NEU.FTZ", p2, abs(a), INF);
        m.fsetp("NEU.FTZ", p1, abs(b), INF);
        m.plop3(both, p1, p2, PT, 0x02);
        m.braIf(both, false, invalid);
        m.fsetp("NEU.FTZ", p1, a, RZ);
        m.fsetp("NEU.FTZ", p3, abs(b), INF);
        m.plop3(p1, p3, p1, PT, 0x2a);
        m.braIf(p1, false, zero);
        m.fsetp("NEU.FTZ", p0, b, RZ);
        m.fsetp("NEU.FTZ", p2, abs(a), INF);
        m.plop3(p2, p2, p0, PT, 0x2a);
        m.braIf(p2, false, inf);
        m.bra(scaled); // not reached: an operand with exponent 0 or 255 is one of the cases above

        m.start(scaled);
        Reg eb0 = m.r(), ea0 = m.r(), bs = m.r(), as = m.r(), rc = m.r(), nb = m.r(), ediff = m.r();
        m.iadd3(eb0, eb, -0x7f, RZ);
        m.iadd3(ea0, ea, -0x7f, RZ);
        m.imad(bs, eb0, -0x800000, b);
        m.imad(as, ea0, -0x800000, a);
        m.mufu("RCP", rc, bs);
        m.fadd("FTZ", nb, neg(bs), neg(RZ));
        m.iadd3(ediff, ea0, neg(eb0), RZ);
        Reg e1 = m.r(), r1 = m.r(), q0 = m.r(), rem0 = m.r(), q1 = m.r(), rem1 = m.r(), q = m.r();
        m.ffma("", e1, rc, nb, 1.0f);
        m.ffma("", r1, rc, e1, rc);
        m.ffma("", q0, as, r1, RZ);
        m.ffma("", rem0, nb, q0, as);
        m.ffma("", q1, r1, rem0, q0);
        m.ffma("", rem1, nb, q1, as);
        m.ffma("FTZ", q, r1, rem1, q1);
        Reg eq = m.r(), e = m.r(), em1 = m.r(), sign = m.r();
        m.shf("R.U32.HI", eq, RZ, 0x17, q);
        m.lop3(eq, eq, 0xff, RZ, 0xc0);
        m.iadd3(e, eq, ediff, RZ);
        m.iadd3(em1, e, -1, RZ);
        BasicBlock normal = m.newBlock();
        m.isetp("GE.U32", p0, em1, 0xfe);
        m.braIf(p0, true, normal);
        m.isetp("GT", p0, e, 0xfe);
        m.lop3(sign, q, 0x80000000, RZ, 0xc0);
        m.atNot(p0).isetp("GE", p1, e, 1);
        m.atNot(p0).sel(res, sign, q, MathEmitter.not(p1));
        m.at(p0).lop3(res, sign, 0x7f800000, RZ, 0xfc);
        m.bra(done);

        m.start(normal);
        m.imad(res, ediff, 0x800000, q);
        m.bra(done);

        emitSpecialQuotients(m, res, a, b, inf, zero, invalid, nanIn, done);
    }

    /**
     * The blocks both slow divisions end in: a signed infinity, a signed zero, the canonical NaN for 0/0 and inf/inf,
     * and a NaN operand propagated by an FTZ add (which quiets it as the hardware division would).
     */
    private static void emitSpecialQuotients(MathEmitter m, Reg res, Reg a, Reg b, BasicBlock inf, BasicBlock zero,
            BasicBlock invalid, BasicBlock nanIn, BasicBlock done) {
        m.start(inf);
        m.lop3(res, b, 0x80000000, a, 0x48);
        m.lop3(res, res, 0x7f800000, RZ, 0xfc);
        m.bra(done);

        m.start(zero);
        m.lop3(res, b, 0x80000000, a, 0x48);
        m.bra(done);

        m.start(invalid);
        m.mov(res, CANONICAL_NAN);
        m.bra(done);

        m.start(nanIn);
        m.fadd("FTZ", res, a, b);
        m.bra(done);
    }

    /** {@code rcp.rn.f32}. */
    static void rcpRn(MathEmitter m, Reg res, Reg x, boolean ftz, BasicBlock done) {
        Reg t = m.r(), p0 = m.p();
        BasicBlock fast = m.newBlock();
        m.iadd3(t, x, 0x1800000, RZ);
        m.lop3(t, t, 0x7f800000, RZ, 0xc0);
        m.isetp("GT.U32", p0, t, 0x1ffffff);
        m.braIf(p0, false, fast);
        if (ftz) {
            rcpSlowFtz(m, res, x, t, done);
        } else {
            rcpSlow(m, res, x, done);
        }
        m.start(fast);
        Reg r = m.r(), e = m.r();
        m.mufu("RCP", r, x);
        m.ffma("", e, x, r, -1.0f);
        m.fadd("FTZ", e, neg(e), neg(RZ));
        m.ffma("", res, r, e, r);
        m.bra(done);
    }

    private static void rcpSlow(MathEmitter m, Reg res, Reg x, BasicBlock done) {
        BasicBlock notDenormal = m.newBlock(), direct = m.newBlock();
        Reg ex = m.r(), p0 = m.p(), p1 = m.p(), p2 = m.p();
        m.op("IMAD", "SHL.U32", ex, x, 2, RZ);
        m.shf("R.U32.HI", ex, RZ, 0x18, ex);
        m.isetp("NE.U32", p0, ex, RZ);
        m.braIf(p0, false, notDenormal);
        Reg twice = m.r();
        m.op("IMAD", "SHL.U32", twice, x, 2, RZ);
        m.isetp("NE", p0, twice, RZ);
        m.atNot(p0).mufu("RCP", res, x);
        m.braIf(p0, true, done);
        Reg xs = m.r(), r = m.r(), e = m.r(), r1 = m.r();
        m.ffma("", xs, x, TWO_POW_64, RZ);
        m.mufu("RCP", r, xs);
        m.ffma("", e, xs, r, -1.0f);
        m.fadd("FTZ", e, neg(e), neg(RZ));
        m.ffma("", r1, r, e, r);
        m.ffma("", res, r1, TWO_POW_64, RZ);
        m.bra(done);

        m.start(notDenormal);
        Reg k = m.r();
        m.iadd3(k, ex, -0xfd, RZ);
        m.isetp("GT.U32", p0, k, 1);
        m.braIf(p0, false, direct);
        // |x| >= 2^126: the reciprocal is denormal; compute it for the significand in [1,2) with directed roundings and
        // shift it right by hand, rounding to nearest even.
        Reg mx = m.r(), three = m.r(), mask = m.r(), rc = m.r(), e2 = m.r(), rm = m.r(), rp = m.r(), lo = m.r(),
                mant = m.r(), inexact = m.r(), sh = m.r(), k2 = m.r(), out = m.r();
        m.lop3(mx, x, 0x7fffff, RZ, 0xc0);
        m.mov(three, 3);
        m.lop3(mx, mx, 0x3f800000, RZ, 0xfc);
        m.shf("L.U32", mask, three, k, RZ);
        m.mufu("RCP", rc, mx);
        m.ffma("", e2, mx, rc, -1.0f);
        m.fadd("FTZ", e2, neg(e2), neg(RZ));
        m.ffma("RM", rm, rc, e2, rc);
        m.ffma("RP", rp, rc, e2, rc);
        m.lop3(lo, rm, 0x7fffff, RZ, 0xc0);
        m.fsetp("NEU.FTZ", p0, rm, rp);
        m.lop3(mant, lo, 0x800000, RZ, 0xfc);
        m.sel(inexact, RZ, -1, MathEmitter.not(p0));
        m.lop3(sh, mask, mant, RZ, 0xc0);
        m.iadd3(inexact, neg(inexact), RZ, RZ);
        m.shf("R.U32.HI", sh, RZ, k, sh);
        m.emit("LOP3", "LUT", java.util.List.of(p1, RZ), inexact, k, mant, 0xf8, MathEmitter.not(PT));
        m.lop3Test(p0, sh, 1, RZ, 0xc0);
        m.lop3Test(p2, sh, 2, RZ, 0xc0);
        m.emit("PLOP3", "LUT", java.util.List.of(p0, PT), p0, p1, p2, 0xe0, 0);
        m.lop3Test(p1, x, 0x7fffff, RZ, 0xc0);
        Reg up = m.r();
        m.sel(up, RZ, 1, MathEmitter.not(p0));
        m.iadd3(up, neg(up), RZ, RZ);
        m.isetp("GE", p0, up, RZ);
        m.iadd3(k2, ex, -0xfc, RZ);
        m.shf("R.U32.HI", out, RZ, k2, mant);
        m.atNot(p0).iadd3(out, out, 1, RZ);
        m.atNot(p1).op("IMAD", "SHL.U32", out, out, 2, RZ);
        m.lop3(res, out, 0x80000000, x, 0xf8);
        m.bra(done);

        m.start(direct);
        m.mufu("RCP", res, x);
        m.bra(done);
    }

    private static void rcpSlowFtz(MathEmitter m, Reg res, Reg x, Reg t, BasicBlock done) {
        // t = ((x + 2^24-bias) & exponent mask): 0x1800000 for exponent 0 (zero/denormal: MUFU gives the signed
        // infinity), 0x800000 for exponent 0xff (inf/nan), 0 for exponent 0xfe, 0x1000000 for 0xfd.
        Reg p0 = m.p(), p1 = m.p(), sign = m.r(), mfrac = m.r();
        BasicBlock direct = m.newBlock();
        m.isetp("EQ.U32", p0, t, 0x1800000);
        m.isetp("EQ.U32", "OR", p0, t, 0x1000000, p0);
        m.braIf(p0, false, direct);
        // exponent 0xfd or 0xfe: the reciprocal is below 2^-126, flushed: 2^-126 exactly for 2^126 (significand 0,
        // exponent 0xfd), otherwise a signed zero
        m.lop3(mfrac, x, 0x7fffff, RZ, 0xc0);
        m.lop3(sign, x, 0x80000000, RZ, 0xc0);
        m.isetp("EQ.U32", p1, mfrac, RZ);
        m.isetp("EQ.U32", "AND", p1, t, RZ, p1);
        m.sel(res, 0x800000, RZ, p1);
        m.lop3(res, res, sign, RZ, 0xfc);
        m.bra(done);
        m.start(direct);
        m.mufu("RCP", res, x);
        m.bra(done);
    }

    /** {@code sqrt.rn.f32}. */
    static void sqrtRn(MathEmitter m, Reg res, Reg x, boolean ftz, BasicBlock done) {
        Reg t = m.r(), y = m.r(), p0 = m.p();
        BasicBlock fast = m.newBlock();
        m.iadd3(t, x, -0xd000000, RZ);
        m.mufu("RSQ", y, x);
        m.isetp("GT.U32", p0, t, 0x727fffff);
        m.braIf(p0, true, fast);
        // slow path: zero, negative, NaN, infinity, tiny and huge inputs
        if (ftz) {
            m.fsetp("NEU.FTZ", p0, x, RZ);
            m.atNot(p0).fmul("FTZ", res, x, 1.0f);
        } else {
            m.lop3Test(p0, x, 0x7fffffff, RZ, 0xc0);
            m.atNot(p0).mov(res, x);
        }
        m.braIf(p0, true, done);
        m.fsetp("GEU.FTZ", p0, x, RZ);
        m.atNot(p0).mov(res, CANONICAL_NAN);
        m.braIf(p0, true, done);
        m.fsetp("GTU.FTZ", p0, abs(x), INF);
        m.at(p0).fadd("FTZ", res, x, 1.0f);
        m.braIf(p0, false, done);
        m.fsetp("NEU.FTZ", p0, abs(x), INF);
        m.atNot(p0).mov(res, x);
        m.braIf(p0, true, done);
        Reg xs = m.r(), ys = m.r(), s = m.r(), h = m.r(), d = m.r(), s1 = m.r();
        if (ftz) {
            m.fmul("FTZ", xs, x, TWO_POW_64);
        } else {
            m.ffma("", xs, x, TWO_POW_64, RZ);
        }
        m.mufu("RSQ", ys, xs);
        m.fmul("FTZ", s, xs, ys);
        m.fmul("FTZ", h, ys, 0.5f);
        m.fadd("FTZ", d, neg(s), neg(RZ));
        m.ffma("", d, s, d, xs);
        m.ffma("", s1, d, h, s);
        m.fmul("FTZ", res, s1, 0x1p-32f);
        m.bra(done);

        m.start(fast);
        Reg s2 = m.r(), h2 = m.r(), d2 = m.r();
        m.fmul("FTZ", s2, x, y);
        m.fmul("FTZ", h2, y, 0.5f);
        m.ffma("", d2, neg(s2), s2, x);
        m.ffma("", res, d2, h2, s2);
        m.bra(done);
    }
}
