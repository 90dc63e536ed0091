package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;
import org.jptxas.testing.kernels.RefMath.Rounding;

/** Kernels about arithmetic semantics: f64, f16/bf16, divisions, conversions, approximations, bit operations. */
final class ArithmeticKernels {
    private ArithmeticKernels() {}

    static List<KernelCase> all() {
        return List.of(f64Horner(), f64DivSqrt(), f16Ops(), half2Ops(), bf16Ops(), divF32(), intDivRem32(),
                intDivRem64(), conversions(), transcendental(), bytePerm(), bfeBfi(), bitCount(), dp4a(), funnelShift(),
                mulhiSad(), minmaxSat(), selectPred(), f32Rounding(), splitmix64(), u64Arith(), sqrtRcp());
    }

    static KernelCase f64Horner() {
        Gen g = new Gen("f64_horner");
        int n = 100;
        double[] c = {0.0078125, -0.125, 0.3333333333333333, -1.5, 2.718281828459045, -0.7071067811865476,
                3.141592653589793, 1.0};
        return kernel("f64_horner").describe("fma.rn.f64 chain").grid(1).block(128)
                .in("x", g.doubles(n, -2, 2)).out("y", Elem.F64, n).s32("n", n)
                .reference(io -> {
                    double[] x = io.f64("x"), y = io.f64("y");
                    for (int i = 0; i < n; i++) {
                        double acc = c[0];
                        for (int k = 1; k < c.length; k++) {
                            acc = Math.fma(acc, x[i], c[k]);
                        }
                        y[i] = acc;
                    }
                });
    }

    static double[] withSpecials(double[] a, double... specials) {
        System.arraycopy(specials, 0, a, 0, specials.length);
        return a;
    }

    static float[] withSpecials(float[] a, float... specials) {
        System.arraycopy(specials, 0, a, 0, specials.length);
        return a;
    }

    static KernelCase f64DivSqrt() {
        Gen g = new Gen("f64_div_sqrt");
        int n = 64;
        double[] a = withSpecials(g.wideDoubles(n, -1030, 1020), 1.0, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NaN,
                Double.MIN_VALUE, 3.0, 1e300, -7.5);
        double[] b = withSpecials(g.wideDoubles(n, -1000, 1000), 0.0, 0.0, 5.0, 2.0, 1.0, 0.5, 3.0, 1e-300,
                Double.NEGATIVE_INFINITY);
        return kernel("f64_div_sqrt").describe("div.rn/rcp.rn/sqrt.rn.f64 incl. specials and subnormals").grid(1).block(64)
                .in("a", a).in("b", b).out("q", Elem.F64, n).out("r", Elem.F64, n).out("s", Elem.F64, n).s32("n", n)
                .reference(io -> {
                    double[] x = io.f64("a"), y = io.f64("b"), q = io.f64("q"), r = io.f64("r"), s = io.f64("s");
                    for (int i = 0; i < n; i++) {
                        q[i] = x[i] / y[i];
                        r[i] = 1.0 / y[i];
                        s[i] = Math.sqrt(Math.abs(x[i]));
                    }
                });
    }

    /** Halves in [-4, 4] that are zero or at least 2^-6 in magnitude (keeps the references' double math exact). */
    static short[] halves(Gen g, int n) {
        float[] f = g.floats(n, -4, 4);
        short[] h = new short[n];
        for (int i = 0; i < n; i++) {
            h[i] = Math.abs(f[i]) < 0x1p-6f ? 0 : RefMath.toHalf(f[i]);
        }
        return h;
    }

    static KernelCase f16Ops() {
        Gen g = new Gen("f16_ops");
        int n = 64;
        return kernel("f16_ops").describe("add/mul/fma.rn.f16, cvt f16<->f32").grid(1).block(64)
                .in("a", Elem.F16, Bytes.of(halves(g, n))).in("b", Elem.F16, Bytes.of(halves(g, n)))
                .in("c", Elem.F16, Bytes.of(halves(g, n)))
                .out("sum", Elem.F16, n).out("prod", Elem.F16, n).out("fma", Elem.F16, n).out("widened", Elem.F32, n)
                .s32("n", n)
                .reference(io -> {
                    short[] a = io.u16("a"), b = io.u16("b"), c = io.u16("c");
                    short[] sum = io.u16("sum"), prod = io.u16("prod"), fma = io.u16("fma");
                    float[] w = io.f32("widened");
                    for (int i = 0; i < n; i++) {
                        double x = RefMath.halfToFloat(a[i]), y = RefMath.halfToFloat(b[i]), z = RefMath.halfToFloat(c[i]);
                        sum[i] = RefMath.toHalf(x + y);
                        prod[i] = RefMath.toHalf(x * y);
                        fma[i] = RefMath.toHalf(Math.fma(x, y, z));
                        w[i] = (float) x * 3.0f;
                    }
                });
    }

    static KernelCase half2Ops() {
        Gen g = new Gen("half2_ops");
        int n = 64;
        return kernel("half2_ops").describe("packed f16x2 add/mul/fma/neg").grid(1).block(64)
                .in("a", Elem.F16, Bytes.of(halves(g, 2 * n))).in("b", Elem.F16, Bytes.of(halves(g, 2 * n)))
                .out("out", Elem.F16, 2 * n).s32("n", n)
                .reference(io -> {
                    short[] a = io.u16("a"), b = io.u16("b"), out = io.u16("out");
                    for (int i = 0; i < 2 * n; i++) {
                        double x = RefMath.halfToFloat(a[i]), y = RefMath.halfToFloat(b[i]);
                        double s = RefMath.halfToFloat(RefMath.toHalf(x + y));
                        double p = RefMath.halfToFloat(RefMath.toHalf(x * y));
                        out[i] = RefMath.toHalf(Math.fma(s, p, -y));
                    }
                });
    }

    static KernelCase bf16Ops() {
        Gen g = new Gen("bf16_ops");
        int n = 64;
        float[] x = withSpecials(g.wideFloats(n, -20, 20), 1.00390625f, 1.01171875f, -3.0e38f, 0.0f);
        float[] y = g.wideFloats(n, -20, 20);
        return kernel("bf16_ops").describe("cvt.rn.bf16.f32 and bf16 multiply").grid(1).block(64)
                .in("x", x).in("y", y).out("xb", Elem.BF16, n).out("prod", Elem.F32, n).s32("n", n)
                .reference(io -> {
                    float[] fx = io.f32("x"), fy = io.f32("y"), prod = io.f32("prod");
                    short[] xb = io.u16("xb");
                    for (int i = 0; i < n; i++) {
                        short a = RefMath.toBf16(fx[i]), b = RefMath.toBf16(fy[i]);
                        xb[i] = a;
                        prod[i] = RefMath.bf16ToFloat(RefMath.toBf16((double) RefMath.bf16ToFloat(a) * RefMath.bf16ToFloat(b)));
                    }
                });
    }

    static KernelCase divF32() {
        Gen g = new Gen("div_f32");
        int n = 64;
        float[] a = withSpecials(g.wideFloats(n, -140, 120), 1.0f, 0.0f, -0.0f, Float.POSITIVE_INFINITY, Float.NaN,
                Float.MIN_VALUE, 3.0f, 1e38f, 1e-38f, 7.0f);
        float[] b = withSpecials(g.wideFloats(n, -130, 126), 0.0f, 0.0f, 5.0f, 2.0f, 1.0f, 0.5f, 3.0f, 1e-38f, 1e38f,
                Float.MIN_VALUE);
        return kernel("div_f32").describe("div.rn.f32 and rcp.rn.f32 incl. specials and subnormals").grid(1).block(64)
                .in("a", a).in("b", b).out("q", Elem.F32, n).out("r", Elem.F32, n).s32("n", n)
                .reference(io -> {
                    float[] x = io.f32("a"), y = io.f32("b"), q = io.f32("q"), r = io.f32("r");
                    for (int i = 0; i < n; i++) {
                        q[i] = x[i] / y[i];
                        r[i] = 1.0f / y[i];
                    }
                });
    }

    static KernelCase intDivRem32() {
        Gen g = new Gen("int_div_rem_32");
        int n = 64;
        int[] a = g.bits32(n);
        int[] b = g.bits32(n);
        int[] small = g.ints(n, -20, 20);
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                b[i] = small[i];
            }
            if (b[i] == 0 || b[i] == -1) {
                b[i] = 3;
            }
        }
        a[0] = Integer.MIN_VALUE;
        b[1] = 1;
        a[2] = -7;
        b[2] = 2;
        return kernel("int_div_rem_32").describe("div/rem .s32/.u32").grid(1).block(64)
                .in("a", a).in("b", b).out("out", Elem.I32, 4 * n).s32("n", n)
                .reference(io -> {
                    int[] x = io.i32("a"), y = io.i32("b"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        out[4 * i] = x[i] / y[i];
                        out[4 * i + 1] = x[i] % y[i];
                        out[4 * i + 2] = Integer.divideUnsigned(x[i], y[i]);
                        out[4 * i + 3] = Integer.remainderUnsigned(x[i], y[i]);
                    }
                });
    }

    static KernelCase intDivRem64() {
        Gen g = new Gen("int_div_rem_64");
        int n = 64;
        long[] a = g.bits64(n);
        long[] b = g.bits64(n);
        int[] small = g.ints(n, -1000, 1000);
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                b[i] = small[i];
            } else if (i % 3 == 1) {
                b[i] >>= 40;
            }
            if (b[i] == 0 || b[i] == -1) {
                b[i] = 7;
            }
        }
        return kernel("int_div_rem_64").describe("div/rem .s64/.u64 and division by a constant").grid(1).block(64)
                .in("a", a).in("b", b).out("out", Elem.I64, 5 * n).s32("n", n)
                .reference(io -> {
                    long[] x = io.i64("a"), y = io.i64("b"), out = io.i64("out");
                    for (int i = 0; i < n; i++) {
                        out[5 * i] = x[i] / y[i];
                        out[5 * i + 1] = x[i] % y[i];
                        out[5 * i + 2] = Long.divideUnsigned(x[i], y[i]);
                        out[5 * i + 3] = Long.remainderUnsigned(x[i], y[i]);
                        out[5 * i + 4] = x[i] / 1000003;
                    }
                });
    }

    static int toUnsignedSaturated(double v) {
        if (Double.isNaN(v) || v <= 0) {
            return 0;
        }
        return v >= 4294967295.0 ? -1 : (int) (long) v;
    }

    static float roundTowardZero(double d) {
        float f = (float) d;
        if (Double.isNaN(d) || Double.isInfinite(d) || (double) f == d) {
            return f;
        }
        return Math.abs((double) f) > Math.abs(d) ? Math.nextAfter(f, 0.0) : f;
    }

    static KernelCase conversions() {
        Gen g = new Gen("conversions");
        int n = 64;
        float[] f = withSpecials(g.floats(n, -3e9, 3e9), 2.5f, -2.5f, 3.5f, -0.5f, 0.49999997f, Float.NaN,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 5e9f, -5e9f, 1e20f, 4294967040.0f, -1.5f, 7.0f);
        float[] small = g.floats(n / 2, -100, 100);
        System.arraycopy(small, 0, f, n / 2, n / 2);
        double[] d = withSpecials(g.doubles(n, -5e9, 5e9), 0.5, 1.5, 2.5, -2.5, Double.NaN, 1e40, -1e40,
                4294967295.4, 4294967295.6, 3.4028235677973366e38, 1.0000000596046448, -1.0000000596046448, 1e-50);
        int[] s = g.bits32(n);
        return kernel("conversions").describe("cvt with every rounding mode and saturation").grid(1).block(64)
                .in("f", f).in("d", d).in("s", s).out("oi", Elem.I32, 8 * n).out("of", Elem.F32, 3 * n)
                .out("od", Elem.F64, 2 * n).out("ol", Elem.I64, 2 * n).s32("n", n)
                .reference(io -> {
                    float[] fx = io.f32("f"), of = io.f32("of");
                    double[] dx = io.f64("d"), od = io.f64("od");
                    int[] sx = io.i32("s"), oi = io.i32("oi");
                    long[] ol = io.i64("ol");
                    for (int i = 0; i < n; i++) {
                        float x = fx[i];
                        oi[8 * i] = (int) Math.rint(x);
                        oi[8 * i + 1] = (int) x;
                        oi[8 * i + 2] = (int) Math.floor(x);
                        oi[8 * i + 3] = (int) Math.ceil(x);
                        oi[8 * i + 4] = toUnsignedSaturated(x < 0 ? Math.ceil(x) : Math.floor(x));
                        oi[8 * i + 5] = (int) dx[i];
                        oi[8 * i + 6] = toUnsignedSaturated(Math.rint(dx[i]));
                        oi[8 * i + 7] = (short) sx[i] + (sx[i] & 0xff);
                        of[3 * i] = (float) sx[i];
                        of[3 * i + 1] = (float) dx[i];
                        of[3 * i + 2] = roundTowardZero(dx[i]);
                        od[2 * i] = x;
                        od[2 * i + 1] = (double) ((long) sx[i] * 0x10001L);
                        ol[2 * i] = (long) x;
                        ol[2 * i + 1] = (long) Math.floor(dx[i]);
                    }
                });
    }

    static KernelCase transcendental() {
        Gen g = new Gen("transcendental_f32");
        int n = 64;
        return kernel("transcendental_f32").describe("sin/cos/ex2/lg2/rsqrt/div .approx within their documented bounds")
                .grid(1).block(64).in("x", g.floats(n, -3, 3)).out("out", Elem.F32, 6 * n, Check.within(4e-6, 4e-6))
                .s32("n", n)
                .reference(io -> {
                    float[] x = io.f32("x"), out = io.f32("out");
                    for (int i = 0; i < n; i++) {
                        float v = x[i];
                        out[6 * i] = (float) Math.sin(v);
                        out[6 * i + 1] = (float) Math.cos(v);
                        out[6 * i + 2] = (float) Math.pow(2, v * 0.25f);
                        out[6 * i + 3] = (float) (Math.log(Math.abs(v) + 0.5f) / Math.log(2));
                        out[6 * i + 4] = (float) (1 / Math.sqrt(Math.abs(v) + 0.25f));
                        out[6 * i + 5] = (float) (v / (double) (1.5f + Math.abs(v)));
                    }
                });
    }

    static KernelCase bytePerm() {
        Gen g = new Gen("byte_perm");
        int n = 64;
        return kernel("byte_perm").describe("prmt.b32 default mode").grid(1).block(64)
                .in("x", Elem.U32, Bytes.of(g.bits32(n))).in("y", Elem.U32, Bytes.of(g.bits32(n)))
                .in("s", Elem.U32, Bytes.of(g.bits32(n))).out("out", Elem.U32, 3 * n).s32("n", n)
                .reference(io -> {
                    int[] x = io.i32("x"), y = io.i32("y"), s = io.i32("s"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        out[3 * i] = RefMath.prmt(x[i], y[i], s[i] & 0x7777);
                        out[3 * i + 1] = RefMath.prmt(x[i], y[i], 0x0123);
                        out[3 * i + 2] = RefMath.prmt(x[i], 0, 0x8881);
                    }
                });
    }

    static KernelCase bfeBfi() {
        Gen g = new Gen("bfe_bfi");
        int n = 64;
        int[] pos = g.ints(n, 0, 40);
        int[] len = g.ints(n, 0, 40);
        pos[0] = 0x105; // only the low 8 bits count
        len[1] = 0x203;
        len[2] = 0;
        return kernel("bfe_bfi").describe("bfe.u32/.s32, bfi.b32 with out-of-range fields").grid(1).block(64)
                .in("x", Elem.U32, Bytes.of(g.bits32(n))).in("y", Elem.U32, Bytes.of(g.bits32(n)))
                .in("pos", Elem.U32, Bytes.of(pos)).in("len", Elem.U32, Bytes.of(len)).out("out", Elem.U32, 3 * n)
                .s32("n", n)
                .reference(io -> {
                    int[] x = io.i32("x"), y = io.i32("y"), p = io.i32("pos"), l = io.i32("len"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        out[3 * i] = RefMath.bfe(x[i], p[i], l[i], false);
                        out[3 * i + 1] = RefMath.bfe(x[i], p[i], l[i], true);
                        out[3 * i + 2] = RefMath.bfi(y[i], x[i], p[i], l[i]);
                    }
                });
    }

    static KernelCase bitCount() {
        Gen g = new Gen("bit_count");
        int n = 64;
        long[] x = g.bits64(n);
        x[0] = 0;
        x[1] = -1;
        x[2] = 1L << 40;
        x[3] = 0x80000000L;
        for (int i = 4; i < 16; i++) {
            x[i] >>>= 4 * i;
        }
        return kernel("bit_count").describe("popc/clz/brev/bfind in 32 and 64 bits").grid(1).block(64)
                .in("x", Elem.U64, Bytes.of(x)).out("out", Elem.U32, 6 * n).out("out64", Elem.U64, n).s32("n", n)
                .reference(io -> {
                    long[] v = io.i64("x"), o64 = io.i64("out64");
                    int[] out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int lo = (int) v[i];
                        out[6 * i] = Integer.bitCount(lo);
                        out[6 * i + 1] = Integer.numberOfLeadingZeros(lo);
                        out[6 * i + 2] = Integer.reverse(lo);
                        out[6 * i + 3] = lo == 0 ? 0 : Integer.numberOfTrailingZeros(lo) + 1;
                        out[6 * i + 4] = Long.bitCount(v[i]);
                        out[6 * i + 5] = Long.numberOfLeadingZeros(v[i]) + 100 * (v[i] == 0 ? 0 : Long.numberOfTrailingZeros(v[i]) + 1);
                        o64[i] = Long.reverse(v[i]);
                    }
                });
    }

    static KernelCase dp4a() {
        Gen g = new Gen("dp4a");
        int n = 64;
        return kernel("dp4a").describe("dp4a/dp2a signed and unsigned").grid(1).block(64)
                .in("a", g.bits32(n)).in("b", g.bits32(n)).in("c", g.bits32(n)).out("out", Elem.I32, 4 * n).s32("n", n)
                .reference(io -> {
                    int[] a = io.i32("a"), b = io.i32("b"), c = io.i32("c"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int s = c[i], u = c[i], lo = c[i], hi = c[i];
                        for (int k = 0; k < 4; k++) {
                            s += (byte) (a[i] >> (8 * k)) * (byte) (b[i] >> (8 * k));
                            u += ((a[i] >>> (8 * k)) & 0xff) * ((b[i] >>> (8 * k)) & 0xff);
                        }
                        for (int k = 0; k < 2; k++) {
                            lo += (short) (a[i] >> (16 * k)) * (byte) (b[i] >> (8 * k));
                            hi += (short) (a[i] >> (16 * k)) * (byte) (b[i] >> (8 * (k + 2)));
                        }
                        out[4 * i] = s;
                        out[4 * i + 1] = u;
                        out[4 * i + 2] = lo;
                        out[4 * i + 3] = hi;
                    }
                });
    }

    static KernelCase funnelShift() {
        Gen g = new Gen("funnel_shift");
        int n = 64;
        int[] sh = g.ints(n, 0, 70);
        sh[0] = 0;
        sh[1] = 32;
        sh[2] = 31;
        sh[3] = 33;
        return kernel("funnel_shift").describe("shf.l/.r, .wrap and .clamp").grid(1).block(64)
                .in("lo", Elem.U32, Bytes.of(g.bits32(n))).in("hi", Elem.U32, Bytes.of(g.bits32(n)))
                .in("sh", Elem.U32, Bytes.of(sh)).out("out", Elem.U32, 4 * n).s32("n", n)
                .reference(io -> {
                    int[] lo = io.i32("lo"), hi = io.i32("hi"), s = io.i32("sh"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        long v = ((long) hi[i] << 32) | Integer.toUnsignedLong(lo[i]);
                        int wrap = s[i] & 31, clamp = Math.min(s[i], 32);
                        out[4 * i] = (int) ((v << wrap) >>> 32);
                        out[4 * i + 1] = (int) (v >>> wrap);
                        out[4 * i + 2] = clamp == 32 ? lo[i] : (int) ((v << clamp) >>> 32);
                        out[4 * i + 3] = clamp == 32 ? hi[i] : (int) (v >>> clamp);
                    }
                });
    }

    static KernelCase mulhiSad() {
        Gen g = new Gen("mulhi_sad");
        int n = 64;
        return kernel("mulhi_sad").describe("mul.hi 32/64, mul24, sad").grid(1).block(64)
                .in("a", g.bits32(n)).in("b", g.bits32(n)).in("c", g.bits64(n)).out("out", Elem.I32, 5 * n)
                .out("out64", Elem.I64, 2 * n).s32("n", n)
                .reference(io -> {
                    int[] a = io.i32("a"), b = io.i32("b"), out = io.i32("out");
                    long[] c = io.i64("c"), o64 = io.i64("out64");
                    for (int i = 0; i < n; i++) {
                        int x = a[i], y = b[i];
                        out[5 * i] = (int) (((long) x * y) >> 32);
                        out[5 * i + 1] = (int) ((Integer.toUnsignedLong(x) * Integer.toUnsignedLong(y)) >>> 32);
                        out[5 * i + 2] = ((x << 8) >> 8) * ((y << 8) >> 8);
                        out[5 * i + 3] = (x < y ? y - x : x - y) + 7;
                        out[5 * i + 4] = (Integer.compareUnsigned(x, y) < 0 ? y - x : x - y) + 11;
                        o64[2 * i] = Math.multiplyHigh(c[i], (long) x * 77777);
                        o64[2 * i + 1] = RefMath.unsignedMultiplyHigh(c[i], c[n - 1 - i]);
                    }
                });
    }

    static KernelCase minmaxSat() {
        Gen g = new Gen("minmax_sat");
        int n = 64;
        float[] x = withSpecials(g.floats(n, -2, 2), Float.NaN, 1.0f, Float.NaN, Float.NEGATIVE_INFINITY, 0.5f, 2.0f,
                -0.0f);
        float[] y = withSpecials(g.floats(n, -2, 2), 1.0f, Float.NaN, Float.NaN, 3.0f, Float.POSITIVE_INFINITY, -1.0f,
                -3.0f);
        int[] a = g.bits32(n);
        a[0] = Integer.MIN_VALUE;
        a[1] = -5;
        a[2] = 4000;
        return kernel("minmax_sat").describe("min/max.f32 NaN rules, saturate, abs, copysign").grid(1).block(64)
                .in("x", x).in("y", y).in("a", a).out("fo", Elem.F32, 5 * n).out("io", Elem.I32, 3 * n).s32("n", n)
                .reference(io -> {
                    float[] fx = io.f32("x"), fy = io.f32("y"), fo = io.f32("fo");
                    int[] ia = io.i32("a"), o = io.i32("io");
                    for (int i = 0; i < n; i++) {
                        float p = fx[i], q = fy[i];
                        fo[5 * i] = Float.isNaN(p) ? q : Float.isNaN(q) ? p : Math.min(p, q);
                        fo[5 * i + 1] = Float.isNaN(p) ? q : Float.isNaN(q) ? p : Math.max(p, q);
                        fo[5 * i + 2] = Float.isNaN(p) ? 0.0f : Math.min(Math.max(p, 0.0f), 1.0f);
                        fo[5 * i + 3] = Math.abs(p) + Math.copySign(1.5f, q);
                        fo[5 * i + 4] = p + q;
                        int v = ia[i];
                        o[3 * i] = Math.min(v, 100) + Math.max(v, -100);
                        o[3 * i + 1] = Math.abs(v);
                        o[3 * i + 2] = Integer.compareUnsigned(v, 5000) < 0 ? v : 5000;
                    }
                });
    }

    static KernelCase selectPred() {
        Gen g = new Gen("select_pred");
        int n = 64;
        float[] f = withSpecials(g.floats(n, -1, 1), Float.NaN, Float.NaN, 0.25f);
        return kernel("select_pred").describe("setp/selp, short branches, NaN compares").grid(1).block(64)
                .in("a", g.ints(n, -30, 30)).in("f", f).out("out", Elem.I32, n).s32("n", n)
                .reference(io -> {
                    int[] a = io.i32("a"), out = io.i32("out");
                    float[] fx = io.f32("f");
                    for (int i = 0; i < n; i++) {
                        int v = a[i];
                        float x = fx[i];
                        int r;
                        if (v > 10 && x < 0.5f) {
                            r = v * 2;
                        } else if (v < -10 || x != x) {
                            r = -v;
                        } else {
                            r = v + 7;
                        }
                        r += (v & 1) != 0 ? 100 : 200;
                        r ^= (x >= 0.0f) != (v >= 0) ? 0x55 : 0;
                        out[i] = r;
                    }
                });
    }

    static KernelCase f32Rounding() {
        Gen g = new Gen("f32_rounding");
        int n = 64;
        float[] a = g.wideFloats(n, -20, 20);
        float[] b = g.wideFloats(n, -20, 20);
        float[] c = g.wideFloats(n, -20, 20);
        b[0] = -a[0]; // exact zero sum
        a[1] = 1e38f;
        b[1] = 1e38f; // overflow
        a[2] = 0x1p-70f;
        b[2] = 0x1p-70f; // subnormal product
        return kernel("f32_rounding").describe("add/mul/fma .rz/.rp/.rm, sqrt.rn").grid(1).block(64)
                .in("a", a).in("b", b).in("c", c).out("out", Elem.F32, 10 * n).s32("n", n)
                .reference(io -> {
                    float[] x = io.f32("a"), y = io.f32("b"), z = io.f32("c"), out = io.f32("out");
                    Rounding[] modes = {Rounding.RZ, Rounding.RU, Rounding.RD};
                    for (int i = 0; i < n; i++) {
                        for (int m = 0; m < 3; m++) {
                            out[10 * i + m] = RefMath.add(x[i], y[i], modes[m]);
                            out[10 * i + 3 + m] = RefMath.mul(x[i], y[i], modes[m]);
                            out[10 * i + 6 + m] = RefMath.fma(x[i], y[i], z[i], modes[m]);
                        }
                        out[10 * i + 9] = (float) Math.sqrt(Math.abs(x[i]));
                    }
                });
    }

    static KernelCase splitmix64() {
        Gen g = new Gen("splitmix64");
        int n = 64;
        return kernel("splitmix64").describe("64-bit multiply/shift/xor").grid(1).block(64)
                .in("seeds", Elem.U64, Bytes.of(g.bits64(n))).out("out", Elem.U64, n).s32("n", n)
                .reference(io -> {
                    long[] s = io.i64("seeds"), out = io.i64("out");
                    for (int i = 0; i < n; i++) {
                        long z = s[i] + 0x9e3779b97f4a7c15L * (i + 1);
                        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
                        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
                        out[i] = z ^ (z >>> 31);
                    }
                });
    }

    static KernelCase u64Arith() {
        Gen g = new Gen("u64_arith");
        int n = 64;
        return kernel("u64_arith").describe("64-bit add/sub/shift/compare/mul").grid(1).block(64)
                .in("a", g.bits64(n)).in("b", g.bits64(n)).out("out", Elem.I64, 6 * n).s32("n", n)
                .reference(io -> {
                    long[] a = io.i64("a"), b = io.i64("b"), out = io.i64("out");
                    for (int i = 0; i < n; i++) {
                        long x = a[i], y = b[i];
                        int sh = (int) y & 63;
                        out[6 * i] = x + y;
                        out[6 * i + 1] = x - (y << 3);
                        out[6 * i + 2] = x >> sh;
                        out[6 * i + 3] = (x >>> sh) ^ (x << (sh ^ 7));
                        out[6 * i + 4] = Math.min(x, y) + (Long.compareUnsigned(x, y) > 0 ? 1 : 0);
                        out[6 * i + 5] = x * y;
                    }
                });
    }

    static KernelCase sqrtRcp() {
        Gen g = new Gen("sqrt_rcp_f32");
        int n = 64;
        float[] x = g.wideFloats(n, -149, 127);
        for (int i = 0; i < n; i++) {
            x[i] = Math.abs(x[i]);
        }
        withSpecials(x, 0.0f, -0.0f, Float.POSITIVE_INFINITY, Float.NaN, -4.0f, Float.MIN_VALUE, 2.0f, 0x1p-140f);
        return kernel("sqrt_rcp_f32").describe("sqrt.rn and rcp.rn .f32 incl. subnormals").grid(1).block(64)
                .in("x", x).out("out", Elem.F32, 3 * n).s32("n", n)
                .reference(io -> {
                    float[] v = io.f32("x"), out = io.f32("out");
                    for (int i = 0; i < n; i++) {
                        out[3 * i] = (float) Math.sqrt(v[i]);
                        out[3 * i + 1] = 1.0f / v[i];
                        out[3 * i + 2] = (float) Math.sqrt(v[i] * 4.0f);
                    }
                });
    }
}
