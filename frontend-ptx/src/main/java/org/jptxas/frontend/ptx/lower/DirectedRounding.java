package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.PT;
import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;
import static org.jptxas.frontend.ptx.lower.MathEmitter.not;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code div}, {@code rcp} and {@code sqrt} with {@code .rz}, {@code .rm} and {@code .rp} (f32 and f64): the IEEE-exact
 * round-to-nearest result {@code q} of the existing sequences, then one exact residual decides on which side of
 * {@code q} the true result lies ({@code a - b*q} for a quotient, {@code x - q*q} for a square root, one FMA, exact
 * because the operands are scaled away from the bottom of the exponent range first) and {@code q} moves one unit
 * in the last place (an integer step of its bit pattern) when the rounding direction asks for the other neighbour.
 * Infinities, NaNs and zeros give a NaN or zero residual and stay as they are; a finite result that rounded to
 * infinity comes back to the largest finite value where the direction asks.
 */
final class DirectedRounding {
    private DirectedRounding() {}

    enum Mode { RZ, RM, RP }

    /** The directed mode of a PTX rounding word, or null for {@code .rn} (and no rounding word). */
    static Mode mode(String rounding) {
        if (rounding == null) {
            return null;
        }
        return switch (rounding) {
            case "rz" -> Mode.RZ;
            case "rm" -> Mode.RM;
            case "rp" -> Mode.RP;
            default -> null;
        };
    }

    /** Below this magnitude the residual's operands are scaled up (by 2^200 for f64, 2^64 for f32) to keep it exact. */
    private static final int SMALL_F64_HIGH_WORD = (-900 + 1023) << 20;
    private static final float SMALL_F32 = 0x1p-90f;

    /** {@code div.{rz,rm,rp}.f64 d, a, b} (a null for {@code rcp}, read as 1). */
    static void quotientF64(LoweringContext cx, Mode mode, Reg d, Src as, Src bs) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        Reg b = F64Sequences.pair(m, bs);
        Reg a = as == null ? null : F64Sequences.pair(m, as);
        Reg q = m.r2();
        if (a == null) {
            F64Sequences.rcpRn(new MathEmitter(cx), q, Src.of(b));
        } else {
            F64Sequences.divRn(new MathEmitter(cx), q, Src.of(a), Src.of(b));
        }
        Reg r = m.r2();
        if (a == null) {
            m.dfma("", r, neg(b), q, 1.0);
        } else {
            Reg notSmall = notSmallF64(m, a), as2 = m.r2(), q2 = m.r2();
            copyPair(m, as2, a);
            copyPair(m, q2, q);
            m.atNot(notSmall).op("DMUL", "", as2, a, 0x1p200);
            m.atNot(notSmall).op("DMUL", "", q2, q, 0x1p200);
            m.dfma("", r, neg(b), q2, as2);
        }
        flipSign(m, r.component(1), b.component(1));
        step(m, mode, q, r, true);
        copyPair(m, d, q);
        m.finish();
    }

    /** {@code sqrt.{rz,rm,rp}.f64 d, x}. */
    static void sqrtF64(LoweringContext cx, Mode mode, Reg d, Src xs) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        Reg x = F64Sequences.pair(m, xs);
        Reg s = m.r2();
        F64Sequences.sqrtRn(new MathEmitter(cx), s, Src.of(x));
        Reg notSmall = notSmallF64(m, x), x2 = m.r2(), s2 = m.r2(), r = m.r2();
        copyPair(m, x2, x);
        copyPair(m, s2, s);
        m.atNot(notSmall).op("DMUL", "", x2, x, 0x1p200);
        m.atNot(notSmall).op("DMUL", "", s2, s, 0x1p100);
        m.dfma("", r, neg(s2), s2, x2);
        step(m, mode, s, r, true);
        copyPair(m, d, s);
        m.finish();
    }

    /**
     * {@code div.{rz,rm,rp}{.ftz}.f32 d, a, b} (a null for {@code rcp}) and {@code sqrt.{rz,rm,rp}{.ftz}.f32 d, b}
     * ({@code sqrt} true): the full-range round-to-nearest sequence on the (with {@code .ftz} flushed) inputs, the step,
     * and with {@code .ftz} the flush of a subnormal result.
     */
    static void f32(LoweringContext cx, Mode mode, Reg d, Src as, Src bs, boolean sqrt, boolean ftz) {
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        Reg b = m.r();
        flushOrMove(m, b, bs, ftz);
        Reg a = null;
        if (as != null) {
            a = m.r();
            flushOrMove(m, a, as, ftz);
        }
        Reg q = m.r();
        BasicBlock done = m.newBlock();
        if (sqrt) {
            F32Sequences.sqrtRn(m, q, b, false, done);
        } else if (a == null) {
            F32Sequences.rcpRn(m, q, b, false, done);
        } else {
            F32Sequences.divRn(m, q, a, b, false, done);
        }
        m.start(done);
        Reg r = m.r();
        Reg notSmall = m.p();
        if (sqrt) {
            Reg x2 = m.r(), s2 = m.r();
            m.fsetp("GEU", notSmall, abs(b), SMALL_F32);
            m.mov(x2, b);
            m.mov(s2, q);
            m.atNot(notSmall).fmul("", x2, b, 0x1p64f);
            m.atNot(notSmall).fmul("", s2, q, 0x1p32f);
            m.ffma("", r, neg(s2), s2, x2);
        } else if (a == null) {
            m.ffma("", r, neg(b), q, 1.0f);
            flipSign(m, r, b);
        } else {
            Reg a2 = m.r(), q2 = m.r();
            m.fsetp("GEU", notSmall, abs(a), SMALL_F32);
            m.mov(a2, a);
            m.mov(q2, q);
            m.atNot(notSmall).fmul("", a2, a, 0x1p64f);
            m.atNot(notSmall).fmul("", q2, q, 0x1p64f);
            m.ffma("", r, neg(b), q2, a2);
            flipSign(m, r, b);
        }
        step(m, mode, q, r, false);
        if (ftz) {
            m.fmul("FTZ", d, q, 1.0f);
        } else {
            m.mov(d, q);
        }
        m.finish();
    }

    private static void flushOrMove(MathEmitter m, Reg d, Src s, boolean ftz) {
        if (ftz) {
            m.fmul("FTZ", d, s, 1.0f);
        } else {
            m.mov(d, s);
        }
    }

    private static void copyPair(MathEmitter m, Reg d, Reg s) {
        m.mov(d.component(0), s.component(0));
        m.mov(d.component(1), s.component(1));
    }

    /** {@code word ^= sign bit of signWord}: the residual's sign becomes that of (true result - q). */
    private static void flipSign(MathEmitter m, Reg word, Reg signWord) {
        Reg sign = m.r();
        m.lop3(sign, signWord, 0x80000000, RZ, 0xc0);
        m.lop3(word, word, sign, RZ, 0x3c);
    }

    /**
     * Not below 2^-900 in magnitude (or NaN), from the high word read as an f32: the bit patterns of non-negative
     * values order as their magnitudes do, and an all-ones exponent is an f32 NaN (unordered: true).
     */
    private static Reg notSmallF64(MathEmitter m, Reg x) {
        Reg p = m.p();
        m.fsetp("GEU", p, abs(x.component(1)), Float.intBitsToFloat(SMALL_F64_HIGH_WORD));
        return p;
    }

    /**
     * Moves {@code q} one step toward the true result when {@code mode} asks: {@code r} has the sign of
     * (true - q); a step away from zero adds 1 to the bit pattern, a step toward zero subtracts 1. The residual is
     * tested on its bits (non-zero and not NaN; its sign), which every SM encodes.
     */
    private static void step(MathEmitter m, Mode mode, Reg q, Reg r, boolean wide) {
        Reg hi = wide ? r.component(1) : r;
        Reg mag = m.r(), key = m.r(), valid = m.p(), rNeg = m.p(), qNeg = m.p();
        m.lop3(mag, hi, 0x7fffffff, RZ, 0xc0);
        if (wide) {
            // a non-zero low word counts as one more unit: 0 < key <= 0x7ff00000 exactly for non-zero non-NaN values
            Reg loSet = m.p(), bit = m.r();
            m.isetp("NE", loSet, r.component(0), RZ);
            m.sel(bit, m.imm(1), RZ, loSet);
            m.lop3(mag, mag, bit, RZ, 0xfc);
        }
        m.iadd3(key, mag, -1, RZ);
        m.isetp("LT.U32", valid, key, wide ? 0x7ff00000 : 0x7f800000);
        m.isetp("LT", rNeg, hi, RZ);
        m.isetp("LT", qNeg, wide ? q.component(1) : q, RZ);
        Reg minusOne = m.imm(-1), one = m.imm(1);
        Reg step = m.r(), delta = m.r();
        switch (mode) {
            case RZ -> { // toward zero: the true result is below a positive q or above a negative one
                Reg ifPos = m.r(), ifNeg = m.r();
                m.sel(ifPos, minusOne, RZ, rNeg);
                m.sel(ifNeg, RZ, -1, rNeg);
                m.sel(step, ifNeg, ifPos, qNeg);
            }
            case RM -> { // toward -inf: the true result is below q
                Reg dir = m.r();
                m.sel(dir, one, -1, qNeg);
                m.sel(step, dir, RZ, rNeg);
            }
            case RP -> { // toward +inf: the true result is above q
                Reg dir = m.r();
                m.sel(dir, minusOne, 1, qNeg);
                m.sel(step, RZ, dir, rNeg);
            }
        }
        m.sel(delta, step, RZ, valid);
        if (!wide) {
            m.iadd3(q, q, delta, RZ);
            return;
        }
        Reg deltaHi = m.r(), carry = m.p(), lo = m.r();
        m.shf("R.S32.HI", deltaHi, RZ, 31, delta);
        m.emit("IADD3", "", List.of(lo, carry, PT), q.component(0), delta, RZ);
        m.emit("IADD3", "X", List.of(q.component(1), PT, PT), q.component(1), deltaHi, RZ, carry, not(PT));
        m.mov(q.component(0), lo);
    }
}
