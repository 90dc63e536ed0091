package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The IEEE single-precision division, reciprocal and square root sequences, bit-exact against Java's IEEE arithmetic. */
class F32DivisionTest {
    interface Ref2 {
        float apply(float a, float b);
    }

    static void assertSameFloat(String what, float expected, float actual) {
        if (Float.isNaN(expected) && Float.isNaN(actual)) {
            return;
        }
        if (Float.floatToRawIntBits(expected) != Float.floatToRawIntBits(actual)) {
            fail(what + ": expected " + expected + " (0x" + Integer.toHexString(Float.floatToRawIntBits(expected))
                    + ") got " + actual + " (0x" + Integer.toHexString(Float.floatToRawIntBits(actual)) + ")");
        }
    }

    static Harness binary(String ptx) {
        return new Harness().reg("%a", PtxType.F32).reg("%b", PtxType.F32).reg("%d", PtxType.F32)
                .lower(new DivisionLowerer(), ptx);
    }

    static int check2(Harness h, Ref2 ref, long n, long seed, OriEvaluator.FchkMode mode, boolean noise) {
        Random rnd = new Random(seed);
        int checked = 0;
        for (float a : Harness.SPECIAL_F32) {
            for (float b : Harness.SPECIAL_F32) {
                run2(h, ref, a, b, mode, noise ? rnd : null);
                checked++;
            }
        }
        for (long k = 0; k < n; k++) {
            float a = Harness.randomFloat(rnd), b = Harness.randomFloat(rnd);
            if (rnd.nextInt(4) == 0) {
                // quotients near the limits of the exponent range
                b = Math.scalb(b, -Math.getExponent(b)) * (float) Math.scalb(1.0, rnd.nextInt(40) - 20);
                a = Math.scalb(Math.abs(a) < Float.MIN_NORMAL ? 1.5f : a, -Math.getExponent(a) + (rnd.nextBoolean() ? 110 + rnd.nextInt(18) : -110 - rnd.nextInt(40)));
            }
            run2(h, ref, a, b, mode, noise ? rnd : null);
            checked++;
        }
        return checked;
    }

    static void run2(Harness h, Ref2 ref, float a, float b, OriEvaluator.FchkMode mode, Random noise) {
        OriEvaluator ev = h.eval();
        ev.fchk = mode;
        ev.mufuNoise = noise;
        ev.setF(h.r("%a"), a);
        ev.setF(h.r("%b"), b);
        ev.run();
        float got = Float.intBitsToFloat(ev.get(h.r("%d")));
        assertSameFloat(a + " / " + b + " (" + Integer.toHexString(Float.floatToRawIntBits(a)) + ", "
                + Integer.toHexString(Float.floatToRawIntBits(b)) + ") fchk " + mode, ref.apply(a, b), got);
    }

    /** div.rn.ftz: denormal operands are zeros, and a quotient below 2^-126 before rounding is a zero. */
    static float divFtz(float a, float b) {
        double q = (double) ftz(a) / ftz(b);
        return Math.abs(q) < Float.MIN_NORMAL ? (float) Math.copySign(0.0, q) : (float) q;
    }

    static float ftz(float x) {
        return OriEvaluator.ftz(x);
    }

    @Test
    void divRn() {
        Harness h = binary("div.rn.f32 %d, %a, %b");
        for (OriEvaluator.FchkMode mode : OriEvaluator.FchkMode.values()) {
            if (mode == OriEvaluator.FchkMode.NEVER) {
                continue;
            }
            check2(h, (a, b) -> a / b, 15_000, 1, mode, false);
        }
    }

    @Test
    void divRnFtz() {
        Harness h = binary("div.rn.ftz.f32 %d, %a, %b");
        for (OriEvaluator.FchkMode mode : new OriEvaluator.FchkMode[] {OriEvaluator.FchkMode.MODEL, OriEvaluator.FchkMode.ALWAYS}) {
            check2(h, F32DivisionTest::divFtz, 15_000, 3, mode, false);
        }
    }

    @Test
    void divApproxAndFullAreCloseAndHandleSpecials() {
        for (String form : new String[] {"div.approx.f32", "div.full.f32", "div.full.ftz.f32", "div.approx.ftz.f32"}) {
            Harness h = binary(form + " %d, %a, %b");
            Random rnd = new Random(5);
            for (int k = 0; k < 5_000; k++) {
                float a = (rnd.nextFloat() - 0.5f) * 1e6f, b = (rnd.nextFloat() - 0.5f) * 1e-3f;
                OriEvaluator ev = h.eval();
                ev.setF(h.r("%a"), a);
                ev.setF(h.r("%b"), b);
                ev.run();
                float got = Float.intBitsToFloat(ev.get(h.r("%d")));
                float want = a / b;
                if (Math.abs(got - want) > 4 * Math.ulp(want)) {
                    fail(form + " " + a + "/" + b + " = " + got + ", want " + want);
                }
            }
        }
    }

    static Harness unary(InstructionLowerer l, String ptx) {
        return new Harness().reg("%a", PtxType.F32).reg("%d", PtxType.F32).lower(l, ptx);
    }

    static void check1(Harness h, java.util.function.DoubleUnaryOperator ref, boolean ftzIn, int stride, boolean noise) {
        Random rnd = new Random(stride);
        // every f32 with a stride through the whole bit space, plus the specials
        for (long bits = 0; bits <= 0xffffffffL; bits += stride) {
            run1(h, ref, Float.intBitsToFloat((int) (bits + rnd.nextInt(stride))), ftzIn, noise ? rnd : null);
        }
        for (float x : Harness.SPECIAL_F32) {
            run1(h, ref, x, ftzIn, null);
        }
    }

    static void run1(Harness h, java.util.function.DoubleUnaryOperator ref, float x, boolean ftzIn, Random noise) {
        OriEvaluator ev = h.eval();
        ev.mufuNoise = noise;
        ev.setF(h.r("%a"), x);
        ev.run();
        float in = ftzIn ? ftz(x) : x;
        float want = (float) ref.applyAsDouble(in);
        if (ftzIn) {
            want = ftz(want);
        }
        assertSameFloat("f(" + x + " 0x" + Integer.toHexString(Float.floatToRawIntBits(x)) + ")", want,
                Float.intBitsToFloat(ev.get(h.r("%d"))));
    }

    @Test
    void rcpRn() {
        check1(unary(new RcpSqrtLowerer(), "rcp.rn.f32 %d, %a"), x -> 1.0 / x, false, 262139, false);
        // (no MUFU noise for rcp: its single Newton step is exact for a correctly rounded MUFU.RCP, as the emulator's,
        // not for every estimate one ulp off; the sweep found 0x23a24cf7)
        check1(unary(new RcpSqrtLowerer(), "rcp.rn.f32 %d, %a"), x -> 1.0 / x, false, 524287, false);
    }

    @Test
    void rcpRnFtz() {
        check1(unary(new RcpSqrtLowerer(), "rcp.rn.ftz.f32 %d, %a"), x -> 1.0 / x, true, 262139, false);
    }

    @Test
    void sqrtRn() {
        check1(unary(new RcpSqrtLowerer(), "sqrt.rn.f32 %d, %a"), Math::sqrt, false, 262139, false);
        check1(unary(new RcpSqrtLowerer(), "sqrt.rn.f32 %d, %a"), Math::sqrt, false, 524287, true);
        check1(unary(new RcpSqrtLowerer(), "sqrt.rn.ftz.f32 %d, %a"), Math::sqrt, true, 262139, false);
    }

    @Test
    @Tag("slow")
    void divRnManyInputs() {
        Harness h = binary("div.rn.f32 %d, %a, %b");
        int n = check2(h, (a, b) -> a / b, 1_000_000, 11, OriEvaluator.FchkMode.MODEL, false);
        n += check2(h, (a, b) -> a / b, 500_000, 12, OriEvaluator.FchkMode.ALWAYS, false);
        n += check2(binary("div.rn.ftz.f32 %d, %a, %b"), F32DivisionTest::divFtz, 500_000, 13,
                OriEvaluator.FchkMode.MODEL, false);
        assertEquals(true, n > 2_000_000);
        // every 8191st f32 through rcp and sqrt (about 524,000 inputs each); sqrt with MUFU.RSQ off by an ulp at random
        check1(unary(new RcpSqrtLowerer(), "rcp.rn.f32 %d, %a"), x -> 1.0 / x, false, 8191, false);
        check1(unary(new RcpSqrtLowerer(), "rcp.rn.ftz.f32 %d, %a"), x -> 1.0 / x, true, 8191, false);
        check1(unary(new RcpSqrtLowerer(), "sqrt.rn.f32 %d, %a"), Math::sqrt, false, 8191, true);
        check1(unary(new RcpSqrtLowerer(), "sqrt.rn.ftz.f32 %d, %a"), Math::sqrt, true, 8191, false);
    }
}
