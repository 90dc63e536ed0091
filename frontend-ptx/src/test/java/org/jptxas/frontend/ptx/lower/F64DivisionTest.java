package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** div.rn.f64, rcp.rn.f64, sqrt.rn.f64 bit-exact against Java's IEEE arithmetic; rsqrt.approx.f64 close. */
class F64DivisionTest {
    static final double[] SPECIAL = {0.0, -0.0, 1.0, -1.0, 2.0, 3.0, 0.1, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE, -Double.MAX_VALUE,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 0x1p1022, 0x1p1023, 0x1p-1022, 0x1p-1023,
        0x1p-1074, 0x1.fffffffffffffp1022, 0x1p-1050, 0x1p-1042, 0x1.0000000000001p0, 0x1.fffffffffffffp-1, 1e300,
        1e-300, 7.0, 0x1p-1000, 0x1p1000};

    static double random(Random rnd) {
        long sign = rnd.nextLong() & 0x8000000000000000L;
        long mant = rnd.nextLong() & 0xfffffffffffffL;
        long exp = switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 0x7ff - rnd.nextInt(4);
            case 2 -> 1 + rnd.nextInt(60);
            case 3 -> 0x7fe - rnd.nextInt(60);
            case 4 -> 900 + rnd.nextInt(250);
            default -> rnd.nextInt(0x800);
        };
        if (rnd.nextInt(4) == 0) {
            mant &= rnd.nextBoolean() ? 0 : ~0xffffffffL;
        }
        return Double.longBitsToDouble(sign | exp << 52 | mant);
    }

    static void same(String what, double want, double got) {
        if (Double.isNaN(want) && Double.isNaN(got)) {
            return;
        }
        if (Double.doubleToRawLongBits(want) != Double.doubleToRawLongBits(got)) {
            fail(what + ": expected " + want + " (" + Long.toHexString(Double.doubleToRawLongBits(want)) + ") got "
                    + got + " (" + Long.toHexString(Double.doubleToRawLongBits(got)) + ")");
        }
    }

    static Harness harness(InstructionLowerer l, String ptx) {
        return new Harness().reg("%a", PtxType.F64).reg("%b", PtxType.F64).reg("%d", PtxType.F64).lower(l, ptx);
    }

    static double run(Harness h, double a, double b, Random noise) {
        OriEvaluator ev = h.eval();
        ev.mufuNoise = noise;
        ev.setD(h.r("%a"), a);
        ev.setD(h.r("%b"), b);
        ev.run();
        return Double.longBitsToDouble(ev.get64(h.r("%d")));
    }

    static void check(InstructionLowerer l, String ptx, DoubleBinaryOperator ref, int n, boolean noise) {
        Harness h = harness(l, ptx);
        Random rnd = new Random(ptx.hashCode() + n);
        for (double a : SPECIAL) {
            for (double b : SPECIAL) {
                same(ptx + " " + a + ", " + b, ref.applyAsDouble(a, b), run(h, a, b, null));
            }
        }
        for (int k = 0; k < n; k++) {
            double a = random(rnd), b = random(rnd);
            if (rnd.nextInt(4) == 0) {
                // quotients near the ends of the exponent range
                b = Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(80) - 40);
                a = Math.scalb(1.0 + rnd.nextDouble(), rnd.nextBoolean() ? 980 + rnd.nextInt(60) : -980 - rnd.nextInt(120));
            }
            same(ptx + " " + a + " (" + Long.toHexString(Double.doubleToRawLongBits(a)) + "), " + b + " ("
                    + Long.toHexString(Double.doubleToRawLongBits(b)) + ")", ref.applyAsDouble(a, b),
                    run(h, a, b, noise ? rnd : null));
        }
    }

    @Test
    void divRn() {
        check(new DivisionLowerer(), "div.rn.f64 %d, %a, %b", (a, b) -> a / b, 6_000, false);
    }

    @Test
    void rcpRn() {
        check(new RcpSqrtLowerer(), "rcp.rn.f64 %d, %a", (a, b) -> 1.0 / a, 5_000, false);
        check(new RcpSqrtLowerer(), "rcp.rn.f64 %d, %a", (a, b) -> 1.0 / a, 3_000, true);
    }

    @Test
    void sqrtRn() {
        check(new RcpSqrtLowerer(), "sqrt.rn.f64 %d, %a", (a, b) -> Math.sqrt(a), 5_000, false);
        check(new RcpSqrtLowerer(), "sqrt.rn.f64 %d, %a", (a, b) -> Math.sqrt(a), 3_000, true);
    }

    @Test
    void rsqrtApprox() {
        Harness h = harness(new RcpSqrtLowerer(), "rsqrt.approx.f64 %d, %a");
        Random rnd = new Random(7);
        for (int k = 0; k < 3_000; k++) {
            double a = k < SPECIAL.length ? SPECIAL[k] : Math.abs(random(rnd));
            double got = run(h, a, 0, null);
            double want = 1.0 / Math.sqrt(a);
            if (Double.isNaN(want) || Double.isInfinite(want) || want == 0) {
                same("rsqrt " + a, want, got);
            } else if (Math.abs(got - want) > 1e-15 * want) {
                fail("rsqrt.approx.f64 " + a + " = " + got + ", want " + want);
            }
        }
    }

    @Test
    @Tag("slow")
    void manyInputs() {
        check(new DivisionLowerer(), "div.rn.f64 %d, %a, %b", (a, b) -> a / b, 400_000, false);
        check(new RcpSqrtLowerer(), "sqrt.rn.f64 %d, %a", (a, b) -> Math.sqrt(a), 300_000, true);
        check(new RcpSqrtLowerer(), "rcp.rn.f64 %d, %a", (a, b) -> 1.0 / a, 300_000, true);
    }
}
