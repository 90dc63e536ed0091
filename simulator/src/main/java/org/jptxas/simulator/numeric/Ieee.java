package org.jptxas.simulator.numeric;

import java.math.BigDecimal;

/**
 * IEEE arithmetic in every rounding direction. Round-to-nearest uses Java's own operations (which are IEEE);
 * directed rounding computes the exact result with {@link BigDecimal} and steps to the neighbour in the right
 * direction, so results are exact for add, mul and fma in binary32 and binary64, subnormals included.
 */
public final class Ieee {
    private Ieee() {}

    public static final int CANONICAL_NAN32 = 0x7fffffff;
    public static final long CANONICAL_NAN64 = 0x7fffffffffffffffL;

    public static float roundToFloat(BigDecimal v, Rounding r) {
        if (v.signum() == 0) {
            return 0.0f;
        }
        float n = v.floatValue();
        int s = v.signum();
        if (Float.isInfinite(n)) {
            return overflowIsInfinite(s, r) ? n : Math.copySign(Float.MAX_VALUE, s);
        }
        return switch (step(s, new BigDecimal(n).compareTo(v), r)) {
            case 1 -> Math.nextUp(n);
            case -1 -> Math.nextDown(n);
            default -> n;
        };
    }

    public static double roundToDouble(BigDecimal v, Rounding r) {
        if (v.signum() == 0) {
            return 0.0;
        }
        double n = v.doubleValue();
        int s = v.signum();
        if (Double.isInfinite(n)) {
            return overflowIsInfinite(s, r) ? n : Math.copySign(Double.MAX_VALUE, s);
        }
        return switch (step(s, new BigDecimal(n).compareTo(v), r)) {
            case 1 -> Math.nextUp(n);
            case -1 -> Math.nextDown(n);
            default -> n;
        };
    }

    /** Whether a result of sign {@code s} too large for the format rounds to infinity (else to the largest finite). */
    private static boolean overflowIsInfinite(int s, Rounding r) {
        return switch (r) {
            case RN -> true;
            case RZ -> false;
            case RP -> s > 0;
            case RM -> s < 0;
        };
    }

    /**
     * Which neighbour the directed rounding takes from the nearest value {@code n} of an exact value of sign
     * {@code s}: {@code c} compares n with the exact value. +1 up, -1 down, 0 n itself.
     */
    private static int step(int s, int c, Rounding r) {
        if (c == 0) {
            return 0;
        }
        return switch (r) {
            case RN -> 0;
            case RZ -> (s > 0) == (c > 0) ? (s > 0 ? -1 : 1) : 0;
            case RP -> c < 0 ? 1 : 0;
            case RM -> c > 0 ? -1 : 0;
        };
    }

    private static boolean special(double... xs) {
        for (double x : xs) {
            if (Double.isNaN(x) || Double.isInfinite(x)) {
                return true;
            }
        }
        return false;
    }

    /** The sign of an exact zero sum: -0 only for (-0)+(-0), or when rounding toward minus infinity. */
    private static boolean negativeZeroSum(double x, double y, Rounding r) {
        boolean xn = Double.doubleToRawLongBits(x) < 0, yn = Double.doubleToRawLongBits(y) < 0;
        if (x == 0 && y == 0 && xn == yn) {
            return xn;
        }
        return r == Rounding.RM;
    }

    public static float add(float x, float y, Rounding r) {
        if (r == Rounding.RN || special(x, y)) {
            return x + y;
        }
        BigDecimal s = new BigDecimal(x).add(new BigDecimal(y));
        if (s.signum() == 0) {
            return negativeZeroSum(x, y, r) ? -0.0f : 0.0f;
        }
        return roundToFloat(s, r);
    }

    public static double add(double x, double y, Rounding r) {
        if (r == Rounding.RN || special(x, y)) {
            return x + y;
        }
        BigDecimal s = new BigDecimal(x).add(new BigDecimal(y));
        if (s.signum() == 0) {
            return negativeZeroSum(x, y, r) ? -0.0 : 0.0;
        }
        return roundToDouble(s, r);
    }

    public static float mul(float x, float y, Rounding r) {
        if (r == Rounding.RN || special(x, y) || x == 0 || y == 0) {
            return x * y;
        }
        return roundToFloat(new BigDecimal(x).multiply(new BigDecimal(y)), r);
    }

    public static double mul(double x, double y, Rounding r) {
        if (r == Rounding.RN || special(x, y) || x == 0 || y == 0) {
            return x * y;
        }
        return roundToDouble(new BigDecimal(x).multiply(new BigDecimal(y)), r);
    }

    public static float fma(float x, float y, float z, Rounding r) {
        if (r == Rounding.RN || special(x, y, z)) {
            return Math.fma(x, y, z);
        }
        BigDecimal s = new BigDecimal(x).multiply(new BigDecimal(y)).add(new BigDecimal(z));
        if (s.signum() == 0) {
            double p = (double) x * y;
            return negativeZeroSum(p, z, r) ? -0.0f : 0.0f;
        }
        return roundToFloat(s, r);
    }

    public static double fma(double x, double y, double z, Rounding r) {
        if (r == Rounding.RN || special(x, y, z)) {
            return Math.fma(x, y, z);
        }
        BigDecimal s = new BigDecimal(x).multiply(new BigDecimal(y)).add(new BigDecimal(z));
        if (s.signum() == 0) {
            double p = x == 0 || y == 0 ? ((Double.doubleToRawLongBits(x) ^ Double.doubleToRawLongBits(y)) < 0 ? -0.0 : 0.0) : x * y;
            return negativeZeroSum(p, z, r) ? -0.0 : 0.0;
        }
        return roundToDouble(s, r);
    }

    /**
     * {@code x / y} in direction {@code r}: the RN quotient, corrected by the sign of the exact residual. A finite
     * quotient that overflows or underflows in RN is rounded from the exact quotient instead (RZ never gives an
     * infinity, RP never rounds a positive quotient to 0, ...).
     */
    public static float div(float x, float y, Rounding r) {
        float q = x / y;
        if (r != Rounding.RN && !special(x, y) && x != 0 && y != 0 && (Float.isInfinite(q) || q == 0)) {
            return roundToFloat(new BigDecimal(x).divide(new BigDecimal(y), new java.math.MathContext(60)), r);
        }
        if (r == Rounding.RN || special(x, y, q) || y == 0 || q == 0) {
            return q;
        }
        BigDecimal resid = new BigDecimal(q).multiply(new BigDecimal(y)).subtract(new BigDecimal(x));
        int c = resid.signum() * (y > 0 ? 1 : -1); // sign of q - x/y
        return stepFloat(q, c, r);
    }

    public static double div(double x, double y, Rounding r) {
        double q = x / y;
        if (r != Rounding.RN && !special(x, y) && x != 0 && y != 0 && (Double.isInfinite(q) || q == 0)) {
            return roundToDouble(new BigDecimal(x).divide(new BigDecimal(y), new java.math.MathContext(1200)), r);
        }
        if (r == Rounding.RN || special(x, y, q) || y == 0 || q == 0) {
            return q;
        }
        BigDecimal resid = new BigDecimal(q).multiply(new BigDecimal(y)).subtract(new BigDecimal(x));
        int c = resid.signum() * (y > 0 ? 1 : -1);
        return stepDouble(q, c, r);
    }

    public static float sqrt(float x, Rounding r) {
        float s = (float) Math.sqrt(x);
        if (r == Rounding.RN || special(x, s) || s == 0) {
            return s;
        }
        int c = new BigDecimal(s).multiply(new BigDecimal(s)).compareTo(new BigDecimal(x));
        return stepFloat(s, c, r);
    }

    public static double sqrt(double x, Rounding r) {
        double s = Math.sqrt(x);
        if (r == Rounding.RN || special(x, s) || s == 0) {
            return s;
        }
        int c = new BigDecimal(s).multiply(new BigDecimal(s)).compareTo(new BigDecimal(x));
        return stepDouble(s, c, r);
    }

    /** Given the RN result {@code q} and the sign {@code c} of (q - exact), the result rounded in direction r. */
    private static float stepFloat(float q, int c, Rounding r) {
        if (c == 0) {
            return q;
        }
        return switch (r) {
            case RP -> c < 0 ? Math.nextUp(q) : q;
            case RM -> c > 0 ? Math.nextDown(q) : q;
            case RZ -> (q > 0) == (c > 0) ? Math.nextAfter(q, 0.0) : q;
            case RN -> q;
        };
    }

    private static double stepDouble(double q, int c, Rounding r) {
        if (c == 0) {
            return q;
        }
        return switch (r) {
            case RP -> c < 0 ? Math.nextUp(q) : q;
            case RM -> c > 0 ? Math.nextDown(q) : q;
            case RZ -> (q > 0) == (c > 0) ? Math.nextAfter(q, 0.0) : q;
            case RN -> q;
        };
    }

    /** Flushes a binary32 subnormal to zero of the same sign ({@code .ftz}). */
    public static float ftz(float x) {
        return x != 0 && Math.abs(x) < Float.MIN_NORMAL ? Math.copySign(0.0f, x) : x;
    }

    /** {@code .sat}: clamps to [0, 1]; NaN becomes +0. */
    public static float saturate(float x) {
        return Float.isNaN(x) ? 0.0f : Math.min(Math.max(x, 0.0f), 1.0f);
    }

    public static double saturate(double x) {
        return Double.isNaN(x) ? 0.0 : Math.min(Math.max(x, 0.0), 1.0);
    }

    /** Rounds a double to an integral value in direction r. */
    public static double roundIntegral(double x, Rounding r) {
        return switch (r) {
            case RN -> Math.rint(x);
            case RZ -> x < 0 ? Math.ceil(x) : Math.floor(x);
            case RM -> Math.floor(x);
            case RP -> Math.ceil(x);
        };
    }
}
