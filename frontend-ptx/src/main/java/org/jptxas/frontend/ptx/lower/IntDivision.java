package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;

import org.jptxas.ori.ir.Reg;

/**
 * ptxas's 32-bit integer division: a reciprocal estimate of the divisor from I2F.RP and MUFU.RCP, scaled to a 32-bit
 * fixed-point value, one Newton step in integer arithmetic (IMAD.HI), the quotient estimate (never too large, at most
 * two too small) and two corrections. Division by zero gives all ones, as ptxas's code does. Needs
 * {@link MathEmitter#ownControl()} (the corrections are predicated).
 */
final class IntDivision {
    private IntDivision() {
    }

    /** The fixed-point reciprocal of {@code d} (unsigned, non-zero): y with y <= 2^32/d, within a few units. */
    private static Reg reciprocal(MathEmitter m, Reg d, Reg negD) {
        Reg rf = m.r(), t = m.r(), y = m.r(), e = m.r(), h = m.r(), y1 = m.r();
        m.op("I2F", "U32.RP", rf, d);
        m.mufu("RCP", rf, rf);
        m.iadd3(t, rf, 0xffffffe, RZ);
        m.op("F2I", "FTZ.U32.TRUNC.NTZ", y, t);
        m.imad(e, negD, y, RZ);
        m.imadHiU32(h, y, e);
        m.iadd3(y1, y, h, RZ);
        return y1;
    }

    /** Unsigned quotient and/or remainder of {@code a / b}; either output may be null. */
    static void unsigned(MathEmitter m, Reg quot, Reg rem, Object a, Object b) {
        Reg bn = m.r(), nb = m.r(), pnz = m.p(), an = m.r();
        m.mov(bn, b);
        m.mov(an, a);
        m.iadd3(nb, neg(bn), RZ, RZ);
        m.isetp("NE.U32", pnz, bn, RZ);
        Reg y = reciprocal(m, bn, nb);
        Reg q = m.r(), r = m.r(), p0 = m.p(), p1 = m.p();
        m.imadHiU32(q, y, an);
        Reg nq = m.r();
        m.iadd3(nq, neg(q), RZ, RZ);
        m.imad(r, bn, nq, an);
        m.isetp("GE.U32", p0, r, bn);
        m.at(p0).iadd3(r, neg(bn), r, RZ);
        m.at(p0).iadd3(q, q, 1, RZ);
        m.isetp("GE.U32", p1, r, bn);
        if (quot != null) {
            m.at(p1).iadd3(q, q, 1, RZ);
            m.mov(quot, q);
            m.atNot(pnz).lop3(quot, RZ, bn, RZ, 0x33);
        }
        if (rem != null) {
            m.at(p1).iadd3(r, r, neg(bn), RZ);
            m.mov(rem, r);
            m.atNot(pnz).lop3(rem, RZ, bn, RZ, 0x33);
        }
    }

    /** Signed (truncating) quotient and/or remainder; the remainder has the dividend's sign. */
    static void signed(MathEmitter m, Reg quot, Reg rem, Object a, Object b) {
        Reg an = m.r(), bn = m.r(), ab = m.r(), aa = m.r(), nab = m.r(), pnz = m.p();
        m.mov(an, a);
        m.mov(bn, b);
        m.op("IABS", "", ab, bn);
        m.op("IABS", "", aa, an);
        m.iadd3(nab, neg(ab), RZ, RZ);
        m.isetp("NE", pnz, bn, RZ);
        Reg y = reciprocal(m, ab, nab);
        Reg q = m.r(), r = m.r(), p0 = m.p(), p1 = m.p();
        m.imadHiU32(q, y, aa);
        m.imad(r, q, nab, aa);
        m.isetp("GT.U32", p0, ab, r);
        m.atNot(p0).iadd3(r, r, neg(ab), RZ);
        m.atNot(p0).iadd3(q, q, 1, RZ);
        m.isetp("GE.U32", p1, r, ab);
        if (quot != null) {
            Reg sgn = m.r(), pos = m.p();
            m.lop3(sgn, an, bn, RZ, 0x3c);
            m.isetp("GE", pos, sgn, RZ);
            m.at(p1).iadd3(q, q, 1, RZ);
            m.mov(quot, q);
            m.atNot(pos).iadd3(quot, neg(q), RZ, RZ);
            m.atNot(pnz).lop3(quot, RZ, bn, RZ, 0x33);
        }
        if (rem != null) {
            Reg pos = m.p();
            m.isetp("GE", pos, an, RZ);
            m.at(p1).iadd3(r, r, neg(ab), RZ);
            m.mov(rem, r);
            m.atNot(pos).iadd3(rem, neg(r), RZ, RZ);
            m.atNot(pnz).lop3(rem, RZ, bn, RZ, 0x33);
        }
    }
}
