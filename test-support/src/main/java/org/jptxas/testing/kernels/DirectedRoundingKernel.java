package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.math.BigDecimal;

/**
 * {@code directed_rounding}: div/rcp/sqrt with .rz/.rm/.rp in f32 and f64, and bmsk/szext. The references round
 * Java's IEEE round-to-nearest result and step it by one ulp when the exact residual (BigDecimal) says the direction
 * asks for the other neighbour. Its PTX is a cli test resource, not a {@link KernelSuite#all()} kernel: the PTX
 * interpreter disagrees with the PTX ISA on directed-rounding overflow (RZ/RM give infinity, not the largest finite
 * value), on directed-rounding subnormal results and on {@code bmsk.wrap}, so the suite's interpreter check would fail.
 */
public final class DirectedRoundingKernel {
    private DirectedRoundingKernel() {}

    enum Dir { RZ, RM, RP }

    public static KernelCase directedRounding() {
        Gen g = new Gen("directed_rounding");
        int n = 96;
        float[] x = ArithmeticKernels.withSpecials(g.wideFloats(n, -140, 120), 0f, -0f, 1f, Float.MIN_VALUE,
                Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NaN, 3f, -7f, 0x1p-126f, 1e30f);
        float[] y = ArithmeticKernels.withSpecials(g.wideFloats(n, -140, 120), 3f, 3f, 0f, 0x1p120f, 0.5f, 2f, 1f,
                Float.MIN_VALUE, -3f, 3f, 1e-30f);
        double[] u = ArithmeticKernels.withSpecials(g.wideDoubles(n, -1060, 1000), 0.0, -0.0, 1.0, Double.MIN_VALUE,
                Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN, 3.0, -7.0, 0x1p-1022, 1e300);
        double[] v = ArithmeticKernels.withSpecials(g.wideDoubles(n, -1060, 1000), 3.0, 3.0, 0.0, 0x1p1000, 0.5, 2.0,
                1.0, Double.MIN_VALUE, -3.0, 3.0, 1e-300);
        return kernel("directed_rounding").describe("div/rcp/sqrt .rz/.rm/.rp f32+f64, bmsk, szext").grid(1).block(96)
                .in("x", x).in("y", y).in("u", u).in("v", v).out("outf", Elem.F32, 9 * n).out("outd", Elem.F64, 9 * n)
                .out("outb", Elem.I32, 4 * n).s32("n", n)
                .reference(io -> {
                    float[] xs = io.f32("x"), ys = io.f32("y"), of = io.f32("outf");
                    double[] us = io.f64("u"), vs = io.f64("v"), od = io.f64("outd");
                    int[] ob = io.i32("outb");
                    for (int i = 0; i < n; i++) {
                        float a = xs[i], b = ys[i];
                        double p = us[i], q = vs[i];
                        Dir[] dirs = {Dir.RZ, Dir.RM, Dir.RP};
                        for (int k = 0; k < 3; k++) {
                            of[9 * i + k] = (float) div(a, b, dirs[k], Float.MAX_VALUE, true);
                            of[9 * i + 3 + k] = (float) div(1f, b, dirs[k], Float.MAX_VALUE, true);
                            of[9 * i + 6 + k] = (float) sqrt(Math.abs(a), dirs[k], true);
                            od[9 * i + k] = div(p, q, dirs[k], Double.MAX_VALUE, false);
                            od[9 * i + 3 + k] = div(1.0, q, dirs[k], Double.MAX_VALUE, false);
                            od[9 * i + 6 + k] = sqrt(Math.abs(p), dirs[k], false);
                        }
                        int s = Float.floatToRawIntBits(a), w = Float.floatToRawIntBits(b) & 63;
                        ob[4 * i] = bmsk(s & 63, w, false);
                        ob[4 * i + 1] = bmsk(s & 63, w, true);
                        ob[4 * i + 2] = szext(s, w, false, true);
                        ob[4 * i + 3] = szext(s, w, true, false);
                    }
                });
    }

    /** a / b rounded in direction {@code d}, in f32 ({@code single}) or f64. */
    static double div(double a, double b, Dir d, double max, boolean single) {
        double q = single ? (double) ((float) a / (float) b) : a / b;
        if (Double.isNaN(q) || Double.isInfinite(a) || Double.isInfinite(b) || b == 0) {
            return q;
        }
        if (Double.isInfinite(q)) {
            boolean pos = q > 0;
            return switch (d) {
                case RZ -> pos ? max : -max;
                case RM -> pos ? max : Double.NEGATIVE_INFINITY;
                case RP -> pos ? Double.POSITIVE_INFINITY : -max;
            };
        }
        int c = new BigDecimal(a).subtract(new BigDecimal(b).multiply(new BigDecimal(q))).signum() * (b < 0 ? -1 : 1);
        return step(q, c, d, single);
    }

    static double sqrt(double x, Dir d, boolean single) {
        double s = single ? (double) (float) Math.sqrt((float) x) : Math.sqrt(x);
        if (Double.isNaN(s) || Double.isInfinite(s) || s == 0) {
            return s;
        }
        BigDecimal bs = new BigDecimal(s);
        return step(s, new BigDecimal(x).subtract(bs.multiply(bs)).signum(), d, single);
    }

    /** q moved one ulp toward the exact result when {@code d} asks; c is the sign of (exact - q). */
    static double step(double q, int c, Dir d, boolean single) {
        boolean move = switch (d) {
            case RZ -> (q > 0 && c < 0) || (q < 0 && c > 0);
            case RM -> c < 0;
            case RP -> c > 0;
        };
        if (!move) {
            return q;
        }
        double toward = c > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        return single ? Math.nextAfter((float) q, toward) : Math.nextAfter(q, toward);
    }

    /** PTX {@code bmsk.clamp/.wrap.b32} as the ISA defines it. */
    public static int bmsk(int a, int b, boolean wrap) {
        long start = wrap ? a & 31 : Math.min(Integer.toUnsignedLong(a), 32);
        long width = wrap ? b & 31 : Math.min(Integer.toUnsignedLong(b), 32);
        long mask = width >= 32 ? 0xffffffffL : (1L << width) - 1;
        return start >= 32 ? 0 : (int) (mask << start);
    }

    /** PTX {@code szext.clamp/.wrap.s32/.u32} as the ISA defines it. */
    public static int szext(int a, int b, boolean wrap, boolean signed) {
        long n = wrap ? b & 31 : Math.min(Integer.toUnsignedLong(b), 32);
        if (n == 0) {
            return 0;
        }
        if (n >= 32) {
            return a;
        }
        int shift = (int) (32 - n);
        return signed ? (a << shift) >> shift : (a << shift) >>> shift;
    }
}
