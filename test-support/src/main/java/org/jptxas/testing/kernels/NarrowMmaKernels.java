package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

/**
 * Warp-level matrix multiplies of the narrow input types (mma.sync with s4/u4, b1 and fp8 inputs). All three share
 * the m16n8 fragment layout of the 8-bit shapes: A row-major and B transposed, 16 words a row, lane (g, t) holding
 * word t (and t + 4) of row g (and g + 8) of each k-step, so only the element width differs.
 */
final class NarrowMmaKernels {
    private NarrowMmaKernels() {}

    /**
     * C = A B + C0 in integers for M = 16, N = 8, K = 128 with 4-bit inputs (sm_80+: IMMA .S4/.U4; on sm_90, which
     * has no 4-bit IMMA, ptxas 13 and jptxas expand each multiply into 8-bit ones): m16n8k64 s4 ({@code c}) and u4
     * ({@code cu}), and m16n8k32 s4 with .satfinite ({@code cs}, C0 within 2^21 of the s32 limits, so that some
     * k-steps saturate). Nibbles are packed eight to a word, lowest first; the results are exact.
     */
    static KernelCase mmaGemmS4() {
        Gen g = new Gen("mma_gemm_s4");
        int[] a = g.bits32(256), bt = g.bits32(128), au = g.bits32(256), but = g.bits32(128);
        int[] c0 = g.ints(128, -1 << 20, 1 << 20), off = g.ints(128, 0, 1 << 21), cs0 = new int[128];
        for (int i = 0; i < 128; i++) {
            cs0[i] = i % 2 == 0 ? Integer.MAX_VALUE - off[i] : Integer.MIN_VALUE + off[i];
        }
        return kernel("mma_gemm_s4").describe("mma.sync m16n8k64/m16n8k32 s4/u4 GEMM, s32 accumulation, satfinite (sm_80+)")
                .minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("au", au).in("but", but).in("c0", c0).in("cs0", cs0)
                .out("c", Elem.I32, 128).out("cu", Elem.I32, 128).out("cs", Elem.I32, 128)
                .reference(io -> TensorKernels.integerGemm(io, a, bt, au, but, c0, cs0, 32, 0xf,
                        NarrowMmaKernels::signedNibble));
    }

    /** Nibble {@code k} of the row of packed nibbles that starts at word {@code row}, sign-extended. */
    private static int signedNibble(int[] words, int row, int k) {
        return (words[row + k / 8] >>> 4 * (k % 8)) << 28 >> 28;
    }

    /**
     * C = C0 + the population count of A op B over k, for M = 16, N = 8, K = 512 with 1-bit inputs (sm_80+: BMMA; on
     * sm_90, which has no .XOR.POPC, it is expanded): m16n8k256 .and.popc ({@code c}) and .xor.popc ({@code cx}),
     * and m16n8k128 .xor.popc in four k-steps ({@code cx128}, the same sums as {@code cx}). Bits are packed 32 to a
     * word, lowest first.
     */
    static KernelCase mmaGemmB1() {
        Gen g = new Gen("mma_gemm_b1");
        int[] a = g.bits32(256), bt = g.bits32(128), c0 = g.ints(128, -1 << 20, 1 << 20);
        return kernel("mma_gemm_b1").describe("mma.sync m16n8k256/m16n8k128 b1 GEMM, and/xor popc (sm_80+)")
                .minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("c0", c0)
                .out("c", Elem.I32, 128).out("cx", Elem.I32, 128).out("cx128", Elem.I32, 128)
                .reference(io -> {
                    int[] c = io.i32("c"), cx = io.i32("cx"), cx128 = io.i32("cx128");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 8; j++) {
                            int and = c0[8 * i + j], xor = c0[8 * i + j];
                            for (int w = 0; w < 16; w++) {
                                and += Integer.bitCount(a[16 * i + w] & bt[16 * j + w]);
                                xor += Integer.bitCount(a[16 * i + w] ^ bt[16 * j + w]);
                            }
                            c[8 * i + j] = and;
                            cx[8 * i + j] = xor;
                            cx128[8 * i + j] = xor;
                        }
                    }
                });
    }

    /**
     * C = A B + C0 for M = 16, N = 8, K = 64 with fp8 inputs and mma.sync.aligned.m16n8k32 (sm_89: QMMA; on sm_90,
     * which has no QMMA, the bytes become f16 pairs for HMMA), two k-steps: e4m3 x e4m3 with f32 accumulation
     * ({@code c}), e4m3 x e5m2 with f32 accumulation ({@code cm}), e5m2 x e5m2 with f16 accumulation ({@code h}).
     * Every input is a normal fp8 value of magnitude 1/8 to 2 (no NaN, no infinity), so the products are exact; the
     * reference is the exact sum rounded once, within {@link TensorKernels#MMA_F32} / {@link TensorKernels#MMA_F16}
     * of the tensor cores' truncating accumulation (f16: rounded at each k-step).
     */
    static KernelCase mmaGemmFp8() {
        Gen g = new Gen("mma_gemm_fp8");
        int[] a4 = fp8Words(g, 256, true), bt4 = fp8Words(g, 128, true), a5 = fp8Words(g, 256, false),
                bt5 = fp8Words(g, 128, false);
        float[] c0 = g.floats(128, -1, 1);
        float[] h0f = g.floats(128, -1, 1);
        short[] h0 = new short[128];
        for (int i = 0; i < 128; i++) {
            h0[i] = RefMath.toHalf(h0f[i]);
        }
        return kernel("mma_gemm_fp8").describe("mma.sync m16n8k32 e4m3/e5m2 GEMM, f32 and f16 accumulation (sm_89+)")
                .minSm(89).grid(1).block(32)
                .in("a4", a4).in("bt4", bt4).in("a5", a5).in("bt5", bt5).in("c0", c0).in("h0", Elem.F16, Bytes.of(h0))
                .out("c", Elem.F32, 128, TensorKernels.MMA_F32).out("cm", Elem.F32, 128, TensorKernels.MMA_F32)
                .out("h", Elem.F16, 128, TensorKernels.MMA_F16)
                .reference(io -> {
                    float[] c = io.f32("c"), cm = io.f32("cm");
                    short[] h = io.u16("h");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 8; j++) {
                            double s = 0, sm = 0, sh = 0;
                            for (int k = 0; k < 64; k++) {
                                double x4 = fp8(a4, 16 * i, k, true), x5 = fp8(a5, 16 * i, k, false);
                                s += x4 * fp8(bt4, 16 * j, k, true);
                                sm += x4 * fp8(bt5, 16 * j, k, false);
                                sh += x5 * fp8(bt5, 16 * j, k, false);
                            }
                            c[8 * i + j] = (float) (s + c0[8 * i + j]);
                            cm[8 * i + j] = (float) (sm + c0[8 * i + j]);
                            h[8 * i + j] = RefMath.toHalf(sh + RefMath.halfToFloat(h0[8 * i + j]));
                        }
                    }
                });
    }

    /**
     * {@code n} words of four random normal fp8 values of magnitude 1/8 to 2 with random signs: e4m3 (exponent bias
     * 7, 3 fraction bits) or e5m2 (bias 15, 2 fraction bits).
     */
    private static int[] fp8Words(Gen g, int n, boolean e4m3) {
        int[] words = new int[n];
        for (int w = 0; w < n; w++) {
            int word = 0;
            for (int b = 0; b < 4; b++) {
                int sign = g.nextInt(2), exp = g.nextInt(5) - 3 + (e4m3 ? 7 : 15);
                int value = e4m3 ? sign << 7 | exp << 3 | g.nextInt(8) : sign << 7 | exp << 2 | g.nextInt(4);
                word |= value << 8 * b;
            }
            words[w] = word;
        }
        return words;
    }

    /** The fp8 value {@code k} of the row of packed bytes that starts at word {@code row} (normal values only). */
    private static double fp8(int[] words, int row, int k, boolean e4m3) {
        int v = words[row + k / 4] >>> 8 * (k % 4) & 0xff;
        int fracBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
        int exp = (v & 0x7f) >>> fracBits, frac = v & (1 << fracBits) - 1;
        double magnitude = Math.scalb(1 + (double) frac / (1 << fracBits), exp - bias);
        return (v & 0x80) != 0 ? -magnitude : magnitude;
    }
}
