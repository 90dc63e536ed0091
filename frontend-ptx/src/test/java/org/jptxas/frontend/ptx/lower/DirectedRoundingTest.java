package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;
import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code div}/{@code rcp}/{@code sqrt} with {@code .rz}/{@code .rm}/{@code .rp}, f64 and f32 (with and without
 * {@code .ftz}), bit-exact against a reference that rounds Java's IEEE result and moves it by one ulp when the exact
 * residual (BigDecimal) says the direction asks for the other neighbour.
 */
class DirectedRoundingTest {
    enum Mode { RZ, RM, RP }

    // ---- references ----

    /** q = round-to-nearest of the true result; c = sign of (true - q); the directed result. */
    static double adjust(double q, int c, Mode mode) {
        if (c == 0) {
            return q;
        }
        return switch (mode) {
            case RZ -> (q > 0 && c < 0) || (q < 0 && c > 0) ? Math.nextAfter(q, 0.0) : q;
            case RM -> c < 0 ? Math.nextDown(q) : q;
            case RP -> c > 0 ? Math.nextUp(q) : q;
        };
    }

    static double overflow(boolean positive, Mode mode, double max) {
        double inf = Double.POSITIVE_INFINITY;
        return switch (mode) {
            case RZ -> positive ? max : -max;
            case RM -> positive ? max : -inf;
            case RP -> positive ? inf : -max;
        };
    }

    static double div64(double a, double b, Mode mode) {
        double q = a / b;
        if (Double.isNaN(q) || Double.isInfinite(a) || Double.isInfinite(b) || b == 0) {
            return q;
        }
        if (Double.isInfinite(q)) {
            return overflow(q > 0, mode, Double.MAX_VALUE);
        }
        int c = new BigDecimal(a).subtract(new BigDecimal(b).multiply(new BigDecimal(q))).signum() * (b < 0 ? -1 : 1);
        return adjust(q, c, mode);
    }

    static double sqrt64(double x, Mode mode) {
        double s = Math.sqrt(x);
        if (Double.isNaN(s) || Double.isInfinite(s) || s == 0) {
            return s;
        }
        BigDecimal bs = new BigDecimal(s);
        return adjust(s, new BigDecimal(x).subtract(bs.multiply(bs)).signum(), mode);
    }

    static float ftz(float x) {
        return Math.abs(x) < Float.MIN_NORMAL ? Math.copySign(0f, x) : x;
    }

    static float div32(float a, float b, Mode mode, boolean ftz) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        float q = a / b;
        float r;
        if (Float.isNaN(q) || Float.isInfinite(a) || Float.isInfinite(b) || b == 0) {
            r = q;
        } else if (Float.isInfinite(q)) {
            r = (float) overflow(q > 0, mode, Float.MAX_VALUE);
        } else {
            int c = new BigDecimal(a).subtract(new BigDecimal(b).multiply(new BigDecimal(q))).signum() * (b < 0 ? -1 : 1);
            r = adjust32(q, c, mode);
        }
        return ftz ? ftz(r) : r;
    }

    static float sqrt32(float x, Mode mode, boolean ftz) {
        if (ftz) {
            x = ftz(x);
        }
        float s = (float) Math.sqrt(x);
        float r = s;
        if (!Float.isNaN(s) && !Float.isInfinite(s) && s != 0) {
            BigDecimal bs = new BigDecimal(s);
            r = adjust32(s, new BigDecimal(x).subtract(bs.multiply(bs)).signum(), mode);
        }
        return ftz ? ftz(r) : r;
    }

    static float adjust32(float q, int c, Mode mode) {
        if (c == 0) {
            return q;
        }
        return switch (mode) {
            case RZ -> (q > 0 && c < 0) || (q < 0 && c > 0) ? Math.nextAfter(q, 0.0) : q;
            case RM -> c < 0 ? Math.nextDown(q) : q;
            case RP -> c > 0 ? Math.nextUp(q) : q;
        };
    }

    // ---- runs ----

    static void f64(String op, Mode mode, int n) {
        String ptx = op + "." + mode.name().toLowerCase() + ".f64 %d, %a" + (op.equals("div") ? ", %b" : "");
        InstructionLowerer l = op.equals("div") ? new DivisionLowerer() : new RcpSqrtLowerer();
        Harness h = F64DivisionTest.harness(l, ptx);
        Random rnd = new Random(ptx.hashCode());
        java.util.function.DoubleBinaryOperator ref = switch (op) {
            case "div" -> (a, b) -> div64(a, b, mode);
            case "rcp" -> (a, b) -> div64(1.0, a, mode);
            default -> (a, b) -> sqrt64(a, mode);
        };
        for (double a : F64DivisionTest.SPECIAL) {
            for (double b : F64DivisionTest.SPECIAL) {
                F64DivisionTest.same(ptx + " " + a + ", " + b, ref.applyAsDouble(a, b), F64DivisionTest.run(h, a, b, null));
            }
        }
        for (int k = 0; k < n; k++) {
            double a = F64DivisionTest.random(rnd), b = F64DivisionTest.random(rnd);
            if (op.equals("sqrt") || rnd.nextBoolean()) {
                a = Math.abs(a);
            }
            F64DivisionTest.same(ptx + " " + a + " (" + Long.toHexString(Double.doubleToRawLongBits(a)) + "), " + b
                    + " (" + Long.toHexString(Double.doubleToRawLongBits(b)) + ")", ref.applyAsDouble(a, b),
                    F64DivisionTest.run(h, a, b, null));
        }
    }

    static void f32(String op, Mode mode, boolean ftz, int n) {
        String ptx = op + "." + mode.name().toLowerCase() + (ftz ? ".ftz" : "") + ".f32 %d, %a"
                + (op.equals("div") ? ", %b" : "");
        InstructionLowerer l = op.equals("div") ? new DivisionLowerer() : new RcpSqrtLowerer();
        Harness h = new Harness().reg("%a", PtxType.F32).reg("%b", PtxType.F32).reg("%d", PtxType.F32).lower(l, ptx);
        Random rnd = new Random(ptx.hashCode());
        F32DivisionTest.Ref2 ref = switch (op) {
            case "div" -> (a, b) -> div32(a, b, mode, ftz);
            case "rcp" -> (a, b) -> div32(1f, a, mode, ftz);
            default -> (a, b) -> sqrt32(a, mode, ftz);
        };
        for (float a : Harness.SPECIAL_F32) {
            for (float b : Harness.SPECIAL_F32) {
                F32DivisionTest.run2(h, ref, a, b, OriEvaluator.FchkMode.MODEL, null);
            }
        }
        for (int k = 0; k < n; k++) {
            float a = Harness.randomFloat(rnd), b = Harness.randomFloat(rnd);
            if (op.equals("sqrt") || rnd.nextBoolean()) {
                a = Math.abs(a);
            }
            F32DivisionTest.run2(h, ref, a, b, k % 2 == 0 ? OriEvaluator.FchkMode.MODEL
                    : OriEvaluator.FchkMode.ALWAYS, null);
        }
    }

    @Test
    void f64DirectedRoundings() {
        for (Mode mode : Mode.values()) {
            for (String op : new String[] {"div", "rcp", "sqrt"}) {
                f64(op, mode, 1_500);
            }
        }
    }

    @Test
    void f32DirectedRoundings() {
        for (Mode mode : Mode.values()) {
            for (String op : new String[] {"div", "rcp", "sqrt"}) {
                f32(op, mode, false, 1_500);
                f32(op, mode, true, 800);
            }
        }
    }

    @Test
    @Tag("slow")
    void manyInputs() {
        for (Mode mode : Mode.values()) {
            for (String op : new String[] {"div", "rcp", "sqrt"}) {
                f64(op, mode, 40_000);
                f32(op, mode, false, 40_000);
                f32(op, mode, true, 20_000);
            }
        }
    }
}
