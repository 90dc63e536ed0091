package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.PT;
import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;
import static org.jptxas.frontend.ptx.lower.MathEmitter.not;

import java.util.List;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * ptxas's 64-bit integer division (its {@code __cuda_sm20_div_u64}/{@code rem_u64} subroutines, inline here): a
 * 32-bit float reciprocal of the divisor (I2F.U64.RP, MUFU.RCP) turned into a 64-bit fixed-point estimate (F2I.U64),
 * two Newton steps in 64x64-bit integer arithmetic (IMAD.WIDE.U32 / IMAD.HI.U32 with 64-bit addends and carry chains),
 * the quotient estimate and two corrections. Signed forms divide magnitudes and fix the signs. Division by zero gives
 * all ones (unsigned), as ptxas's code does.
 */
final class IntDivision64 {
    private IntDivision64() {
    }

    static void divide(MathEmitter m, Reg d, Src as, Src bs, boolean signed, boolean rem) {
        m.ownControl();
        Reg a = F64Sequences.pair(m, as), b = F64Sequences.pair(m, bs);
        Reg res = m.r2();
        if (!signed) {
            unsigned(m, res, a, b, rem);
        } else {
            // magnitudes, divide, then negate: the quotient when the signs differ, the remainder with the dividend
            Reg ua = abs64(m, a), ub = abs64(m, b), ur = m.r2();
            unsigned(m, ur, ua, ub, rem);
            Reg sign = m.r(), pNeg = m.p(), pz = m.p();
            if (rem) {
                m.mov(sign, a.component(1));
            } else {
                m.lop3(sign, a.component(1), b.component(1), RZ, 0x3c);
            }
            m.isetp("LT", pNeg, sign, RZ);
            Reg n = negate64(m, ur);
            m.op("SEL", "", res.component(0), n.component(0), ur.component(0), pNeg);
            m.op("SEL", "", res.component(1), n.component(1), ur.component(1), pNeg);
            if (!rem) {
                // division by zero: all ones, as the 32-bit signed sequence gives
                m.isetp("NE.U32", pz, b.component(0), RZ);
                m.emit("ISETP", "NE.AND.EX", List.of(pz, PT), b.component(1), RZ, PT, pz);
                m.sel(res.component(0), res.component(0), -1, pz);
                m.sel(res.component(1), res.component(1), -1, pz);
            }
        }
        m.mov(d.component(0), res.component(0));
        m.mov(d.component(1), res.component(1));
        m.finish();
    }

    private static Reg negate64(MathEmitter m, Reg x) {
        Reg n = m.r2(), c = m.p();
        m.emit("IADD3", "", List.of(n.component(0), c, PT), RZ, neg(x.component(0)), RZ);
        m.emit("IADD3", "X", List.of(n.component(1), PT, PT), RZ, not(x.component(1)), RZ, c, not(PT));
        return n;
    }

    private static Reg abs64(MathEmitter m, Reg x) {
        Reg n = negate64(m, x), r = m.r2(), p = m.p();
        m.isetp("LT", p, x.component(1), RZ);
        m.sel(r.component(0), n.component(0), x.component(0), p);
        m.sel(r.component(1), n.component(1), x.component(1), p);
        return r;
    }

    private static void unsigned(MathEmitter m, Reg res, Reg a, Reg b, boolean rem) {
        Reg a0 = a.component(0), a1 = a.component(1), b0 = b.component(0), b1 = b.component(1);
        Reg f = m.r(), y = m.r2(), p0 = m.p(), p1 = m.p(), p2 = m.p();
        // reciprocal estimate y ~ 2^64 / b
        m.op("I2F", "U64.RP", f, b);
        m.mufu("RCP", f, f);
        m.iadd3(f, f, 0x1ffffffe, RZ);
        m.op("F2I", "U64.TRUNC", y, f);
        Reg y0 = y.component(0), y1 = y.component(1);
        // first Newton step: e = -(y * b) (64 bits), y += hi64(y * e)
        Reg t = m.r2(), e0 = m.r(), c = m.r2(), e1 = m.r(), lo = m.r(), hi = m.r();
        m.emit("IMAD", "WIDE.U32", List.of(t, PT), y0, b0, RZ);
        m.imad(t.component(1), b1, y0, t.component(1));
        m.emit("IADD3", "", List.of(e0, p0, PT), RZ, neg(t.component(0)), RZ);
        m.imad(t.component(1), b0, y1, t.component(1));
        m.emit("IMAD", "HI.U32", List.of(c.component(0), PT), y0, e0, RZ);
        m.emit("IMAD", "X", List.of(e1), RZ, RZ, not(t.component(1)), p0);
        m.mov(c.component(1), y0);
        m.imad(lo, y1, e1, RZ);
        m.emit("IMAD", "WIDE.U32", List.of(c, p0), y0, e1, c);
        m.emit("IMAD", "HI.U32", List.of(hi, PT), y1, e1, RZ);
        Reg s = m.r(), z0 = m.r(), z1 = m.r(), h2 = m.r();
        m.emit("IMAD", "HI.U32", List.of(h2, p1), y1, e0, c);
        m.emit("IADD3", "", List.of(z0, p2, PT), lo, h2, RZ);
        m.emit("IMAD", "X", List.of(s), hi, 1, y1, p0);
        m.emit("IADD3", "X", List.of(z1, PT, PT), RZ, RZ, s, p2, p1);
        // second Newton step on z = (z0, z1)
        Reg u = m.r2(), g0 = m.r(), g1 = m.r(), c2 = m.r2(), w0 = m.r(), w1 = m.r(), lo2 = m.r(), hi2 = m.r(),
                h3 = m.r(), v = m.r();
        m.emit("IMAD", "WIDE.U32", List.of(u, PT), z0, b0, RZ);
        m.imad(u.component(1), b1, z0, u.component(1));
        m.emit("IADD3", "", List.of(g0, p0, PT), RZ, neg(u.component(0)), RZ);
        m.imad(u.component(1), b0, z1, u.component(1));
        m.emit("IMAD", "HI.U32", List.of(c2.component(0), PT), z0, g0, RZ);
        m.emit("IADD3", "X", List.of(g1, PT, PT), RZ, not(u.component(1)), RZ, p0, not(PT));
        m.mov(c2.component(1), z0);
        m.emit("IMAD", "WIDE.U32", List.of(c2, p0), z0, g1, c2);
        m.imad(lo2, z1, g1, RZ);
        m.emit("IMAD", "HI.U32", List.of(h3, p1), z1, g0, c2);
        m.emit("IMAD", "HI.U32", List.of(hi2, PT), z1, g1, RZ);
        m.emit("IADD3", "", List.of(w0, p2, PT), lo2, h3, RZ);
        m.emit("IMAD", "X", List.of(v), hi2, 1, z1, p0);
        m.emit("IADD3", "X", List.of(w1, PT, PT), RZ, RZ, v, p2, p1);
        // quotient estimate q = hi64(a * w)
        Reg k = m.r2(), q0 = m.r(), q1 = m.r(), l3 = m.r(), h4 = m.r(), m5 = m.r(), x8 = m.r();
        m.emit("IMAD", "HI.U32", List.of(k.component(0), PT), w0, a0, RZ);
        m.mov(k.component(1), RZ);
        m.emit("IMAD", "WIDE.U32", List.of(k, PT), a1, w0, k);
        m.imad(l3, a1, w1, RZ);
        m.emit("IMAD", "HI.U32", List.of(h4, p0), a0, w1, k);
        m.emit("IMAD", "HI.U32", List.of(m5, PT), a1, w1, RZ);
        m.emit("IADD3", "", List.of(q0, p1, PT), l3, h4, RZ);
        m.emit("IMAD", "X", List.of(x8), RZ, RZ, m5, p0);
        m.emit("IADD3", "X", List.of(q1, PT, PT), RZ, x8, RZ, p1, not(PT));
        // remainder r = a - q * b
        Reg qb = m.r2(), r0 = m.r(), r1 = m.r();
        m.emit("IMAD", "WIDE.U32", List.of(qb, PT), q0, b0, RZ);
        m.imad(qb.component(1), b1, q0, qb.component(1));
        m.emit("IADD3", "", List.of(r0, p1, PT), a0, neg(qb.component(0)), RZ);
        m.imad(qb.component(1), b0, q1, qb.component(1));
        m.emit("IMAD", "X", List.of(r1), a1, 1, not(qb.component(1)), p1);
        Reg nz = m.p();
        if (!rem) {
            // two corrections: q += 1 while r >= b
            Reg qa0 = m.r(), qa1 = m.r(), ra0 = m.r(), ra1 = m.r(), sq0 = m.r(), sq1 = m.r(), sr0 = m.r(), sr1 = m.r();
            m.isetp("GE.U32", p0, r0, b0);
            m.emit("IADD3", "", List.of(qa0, p1, PT), q0, 1, RZ);
            m.emit("IADD3", "", List.of(ra0, p2, PT), neg(b0), r0, RZ);
            m.emit("ISETP", "GE.U32.AND.EX", List.of(p0, PT), r1, b1, PT, p0);
            m.emit("IMAD", "X", List.of(qa1), RZ, RZ, q1, p1);
            m.emit("IADD3", "X", List.of(ra1, PT, PT), not(b1), r1, RZ, p2, not(PT));
            m.sel(sr0, ra0, r0, p0);
            m.sel(sq0, qa0, q0, p0);
            m.sel(sr1, ra1, r1, p0);
            m.sel(sq1, qa1, q1, p0);
            Reg qb0 = m.r(), qb1 = m.r();
            m.isetp("GE.U32", p0, sr0, b0);
            m.emit("IADD3", "", List.of(qb0, p2, PT), sq0, 1, RZ);
            m.emit("ISETP", "GE.U32.AND.EX", List.of(p0, PT), sr1, b1, PT, p0);
            m.emit("IADD3", "X", List.of(qb1, PT, PT), RZ, sq1, RZ, p2, not(PT));
            m.isetp("NE.U32", nz, b0, RZ);
            m.sel(qb1, qb1, sq1, p0);
            m.emit("ISETP", "NE.AND.EX", List.of(nz, PT), b1, RZ, PT, nz);
            m.sel(qb0, qb0, sq0, p0);
            m.sel(res.component(1), qb1, -1, nz);
            m.sel(res.component(0), qb0, -1, nz);
        } else {
            Reg ra0 = m.r(), ra1 = m.r(), sr0 = m.r(), sr1 = m.r(), rb0 = m.r(), rb1 = m.r();
            m.isetp("GE.U32", p0, r0, b0);
            m.emit("IADD3", "", List.of(ra0, p1, PT), neg(b0), r0, RZ);
            m.emit("ISETP", "GE.U32.AND.EX", List.of(p0, PT), r1, b1, PT, p0);
            m.emit("IADD3", "X", List.of(ra1, PT, PT), not(b1), r1, RZ, p1, not(PT));
            m.sel(sr0, ra0, r0, p0);
            m.sel(sr1, ra1, r1, p0);
            m.isetp("GE.U32", p0, sr0, b0);
            m.emit("IADD3", "", List.of(rb0, p2, PT), neg(b0), sr0, RZ);
            m.emit("ISETP", "GE.U32.AND.EX", List.of(p0, PT), sr1, b1, PT, p0);
            m.isetp("NE.U32", nz, b0, RZ);
            m.emit("IMAD", "X", List.of(rb1), sr1, 1, not(b1), p2);
            m.sel(rb0, rb0, sr0, p0);
            m.emit("ISETP", "NE.AND.EX", List.of(nz, PT), b1, RZ, PT, nz);
            m.sel(rb1, rb1, sr1, p0);
            m.sel(res.component(0), rb0, -1, nz);
            m.sel(res.component(1), rb1, -1, nz);
        }
    }
}
