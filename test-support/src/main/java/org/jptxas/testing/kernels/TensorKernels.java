package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about tensor cores: warp-level matrix multiplies (mma.sync). */
final class TensorKernels {
    private TensorKernels() {}

    static List<KernelCase> all() {
        return List.of(mmaGemmF16(), mmaM16n8k8F16(), mmaF64(), mmaGemmS8(), mmaM8n8k16S8(), mmaGemmTf32(),
                wmmaGemmF16(), wmmaGemmTf32(), NarrowMmaKernels.mmaGemmS4(), NarrowMmaKernels.mmaGemmB1(),
                NarrowMmaKernels.mmaGemmFp8());
    }

    /**
     * Tolerance of an f32 result of a tensor-core sum of 32 products of values in [-1, 1] plus C: the hardware aligns
     * addends to the largest exponent and truncates, so the last few bits of f32 may differ from the exact sum.
     */
    static final Check MMA_F32 = Check.within(0x1p-14, 0x1p-16);
    /** The same for an f16 result: rounded (perhaps toward zero) at each of the two k-steps. */
    static final Check MMA_F16 = Check.within(0x1p-8, 0x1p-9);

    /**
     * C = A B + C0 for M = N = 16, K = 32 with mma.sync.aligned.m16n8k16.row.col (two warps, one 8-column half each,
     * two k-steps): f16 inputs with f32 accumulation ({@code c}), with f16 accumulation ({@code h}), and bf16 inputs
     * with f32 accumulation ({@code cb}). A is row-major, B is given transposed (row n of {@code bt} is column n of
     * B), 16-bit values packed two to a word. The reference is the exact sum, rounded once; the tensor cores'
     * truncating accumulation is within {@link #MMA_F32} / {@link #MMA_F16}.
     */
    static KernelCase mmaGemmF16() {
        Gen g = new Gen("mma_gemm_f16");
        short[] a = small(g, 512, false), bt = small(g, 512, false), ab = small(g, 512, true), bbt = small(g, 512, true);
        float[] c0 = g.floats(256, -1, 1);
        short[] h0 = small(g, 256, false);
        return kernel("mma_gemm_f16").describe("mma.sync m16n8k16 f16/bf16 GEMM, f32 and f16 accumulation (sm_80+)")
                .minSm(80).grid(1).block(64)
                .in("a", Elem.F16, Bytes.of(a)).in("bt", Elem.F16, Bytes.of(bt))
                .in("ab", Elem.BF16, Bytes.of(ab)).in("bbt", Elem.BF16, Bytes.of(bbt))
                .in("c0", c0).in("h0", Elem.F16, Bytes.of(h0))
                .out("c", Elem.F32, 256, MMA_F32).out("h", Elem.F16, 256, MMA_F16).out("cb", Elem.F32, 256, MMA_F32)
                .reference(io -> {
                    float[] c = io.f32("c"), cb = io.f32("cb");
                    short[] h = io.u16("h");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 16; j++) {
                            double s = 0, sb = 0;
                            for (int k = 0; k < 32; k++) {
                                s += (double) RefMath.halfToFloat(a[32 * i + k]) * RefMath.halfToFloat(bt[32 * j + k]);
                                sb += (double) RefMath.bf16ToFloat(ab[32 * i + k]) * RefMath.bf16ToFloat(bbt[32 * j + k]);
                            }
                            c[16 * i + j] = (float) (s + c0[16 * i + j]);
                            cb[16 * i + j] = (float) (sb + c0[16 * i + j]);
                            h[16 * i + j] = RefMath.toHalf(s + RefMath.halfToFloat(h0[16 * i + j]));
                        }
                    }
                });
    }

    /**
     * C = A B + C0 for M = 16, N = 8, K = 16 with mma.sync.aligned.m16n8k8.row.col (sm_75+: HMMA.1688), one warp, two
     * k-steps: f16 inputs with f32 accumulation ({@code c}) and f16 accumulation ({@code h}); layouts as
     * {@link #mmaGemmF16()}.
     */
    static KernelCase mmaM16n8k8F16() {
        Gen g = new Gen("mma_m16n8k8_f16");
        short[] a = small(g, 256, false), bt = small(g, 128, false);
        float[] c0 = g.floats(128, -1, 1);
        short[] h0 = small(g, 128, false);
        return kernel("mma_m16n8k8_f16").describe("mma.sync m16n8k8 f16 GEMM, f32 and f16 accumulation (sm_75+)")
                .grid(1).block(32)
                .in("a", Elem.F16, Bytes.of(a)).in("bt", Elem.F16, Bytes.of(bt))
                .in("c0", c0).in("h0", Elem.F16, Bytes.of(h0))
                .out("c", Elem.F32, 128, MMA_F32).out("h", Elem.F16, 128, MMA_F16)
                .reference(io -> {
                    float[] c = io.f32("c");
                    short[] h = io.u16("h");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 8; j++) {
                            double s = 0;
                            for (int k = 0; k < 16; k++) {
                                s += (double) RefMath.halfToFloat(a[16 * i + k]) * RefMath.halfToFloat(bt[16 * j + k]);
                            }
                            c[8 * i + j] = (float) (s + c0[8 * i + j]);
                            h[8 * i + j] = RefMath.toHalf(s + RefMath.halfToFloat(h0[8 * i + j]));
                        }
                    }
                });
    }

    /**
     * C = A B + C0 in f64 for M = N = K = 8 with mma.sync.aligned.m8n8k4.row.col.f64 (sm_80+: DMMA), one warp, two
     * k-steps. The reference is the exact sum rounded once; DMMA's fused steps are within a few ulps of it.
     */
    static KernelCase mmaF64() {
        Gen g = new Gen("mma_f64");
        double[] a = g.doubles(64, -1, 1), bt = g.doubles(64, -1, 1), c0 = g.doubles(64, -1, 1);
        return kernel("mma_f64").describe("mma.sync m8n8k4 f64 GEMM (sm_80+)").minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("c0", c0).out("c", Elem.F64, 64, Check.within(0x1p-48, 0x1p-50))
                .reference(io -> {
                    double[] c = io.f64("c");
                    for (int i = 0; i < 8; i++) {
                        for (int j = 0; j < 8; j++) {
                            java.math.BigDecimal s = new java.math.BigDecimal(c0[8 * i + j]);
                            for (int k = 0; k < 8; k++) {
                                s = s.add(new java.math.BigDecimal(a[8 * i + k]).multiply(new java.math.BigDecimal(bt[8 * j + k])));
                            }
                            c[8 * i + j] = s.doubleValue();
                        }
                    }
                });
    }

    /**
     * C = A B + C0 in integers for M = 16, N = 8, K = 64 with mma.sync.aligned (sm_80+: IMMA), one warp: m16n8k32 s8
     * ({@code c}) and u8 ({@code cu}), and m16n8k16 s8 with .satfinite ({@code cs}, C0 within 2^21 of the s32 limits,
     * so that some k-steps saturate and later ones move away from the limit again). A is row-major, B is given
     * transposed, bytes packed four to a word (lowest first). Integer products are exact: the results are too.
     */
    static KernelCase mmaGemmS8() {
        Gen g = new Gen("mma_gemm_s8");
        int[] a = g.bits32(256), bt = g.bits32(128), au = g.bits32(256), but = g.bits32(128), c0 = g.ints(128, -1 << 20,
                1 << 20), off = g.ints(128, 0, 1 << 21), cs0 = new int[128];
        for (int i = 0; i < 128; i++) {
            cs0[i] = i % 2 == 0 ? Integer.MAX_VALUE - off[i] : Integer.MIN_VALUE + off[i];
        }
        return kernel("mma_gemm_s8").describe("mma.sync m16n8k32/m16n8k16 s8/u8 GEMM, s32 accumulation, satfinite (sm_80+)")
                .minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("au", au).in("but", but).in("c0", c0).in("cs0", cs0)
                .out("c", Elem.I32, 128).out("cu", Elem.I32, 128).out("cs", Elem.I32, 128)
                .reference(io -> integerGemm(io, a, bt, au, but, c0, cs0, 16, 0xff, TensorKernels::signedByte));
    }

    /** Element {@code k}, sign-extended, of the packed row that starts at word {@code row}. */
    interface PackedElement {
        int at(int[] words, int row, int k);
    }

    /**
     * The reference of the integer m16n8 GEMMs (s8/u8, s4/u4): {@code c} and {@code cu} are C0 + A B over four
     * k-steps of {@code kStep} elements, signed and unsigned ({@code unsignedMask} keeps an element's bits);
     * {@code cs} starts from {@code cs0} and saturates to s32 after each k-step (.satfinite).
     */
    static void integerGemm(Io io, int[] a, int[] bt, int[] au, int[] but, int[] c0, int[] cs0, int kStep,
                            int unsignedMask, PackedElement element) {
        int[] c = io.i32("c"), cu = io.i32("cu"), cs = io.i32("cs");
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 8; j++) {
                int s = c0[8 * i + j], su = c0[8 * i + j];
                long sat = cs0[8 * i + j];
                for (int step = 0; step < 4; step++) {
                    long part = 0;
                    for (int k = kStep * step; k < kStep * step + kStep; k++) {
                        int p = element.at(a, 16 * i, k) * element.at(bt, 16 * j, k);
                        s += p;
                        part += p;
                        su += (element.at(au, 16 * i, k) & unsignedMask) * (element.at(but, 16 * j, k) & unsignedMask);
                    }
                    sat = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sat + part));
                }
                c[8 * i + j] = s;
                cu[8 * i + j] = su;
                cs[8 * i + j] = (int) sat;
            }
        }
    }

    /**
     * C = A B + C0 in integers for M = N = 8, K = 32 with mma.sync.aligned.m8n8k16.row.col (sm_75+: IMMA.8816), one
     * warp, two k-steps: s8 ({@code c}) and u8 ({@code cu}) inputs; layouts as {@link #mmaGemmS8()}.
     */
    static KernelCase mmaM8n8k16S8() {
        Gen g = new Gen("mma_m8n8k16_s8");
        int[] a = g.bits32(64), bt = g.bits32(64), au = g.bits32(64), but = g.bits32(64), c0 = g.ints(64, -1 << 20, 1 << 20);
        return kernel("mma_m8n8k16_s8").describe("mma.sync m8n8k16 s8/u8 GEMM, s32 accumulation (sm_75+)")
                .grid(1).block(32)
                .in("a", a).in("bt", bt).in("au", au).in("but", but).in("c0", c0)
                .out("c", Elem.I32, 64).out("cu", Elem.I32, 64)
                .reference(io -> {
                    int[] c = io.i32("c"), cu = io.i32("cu");
                    for (int i = 0; i < 8; i++) {
                        for (int j = 0; j < 8; j++) {
                            int s = c0[8 * i + j], su = c0[8 * i + j];
                            for (int k = 0; k < 32; k++) {
                                s += signedByte(a, 8 * i, k) * signedByte(bt, 8 * j, k);
                                su += (signedByte(au, 8 * i, k) & 0xff) * (signedByte(but, 8 * j, k) & 0xff);
                            }
                            c[8 * i + j] = s;
                            cu[8 * i + j] = su;
                        }
                    }
                });
    }

    /** Byte {@code k} of the row of packed bytes that starts at word {@code row}, sign-extended. */
    private static int signedByte(int[] words, int row, int k) {
        return (byte) (words[row + k / 4] >>> 8 * (k % 4));
    }

    /**
     * C = A B + C0 for M = 16, N = 8, K = 16 with tf32 inputs (sm_80+: HMMA.1688.F32.TF32 and HMMA.1684.F32.TF32), one
     * warp: m16n8k8 in two k-steps ({@code c}) and m16n8k4 in four ({@code c4}). The inputs are tf32 values (f32 with
     * the low 13 fraction bits zero), so their products are exact whatever the hardware does with the low bits; the
     * reference is the exact sum rounded once, within {@link #MMA_F32} of the tensor cores' truncating accumulation.
     */
    static KernelCase mmaGemmTf32() {
        Gen g = new Gen("mma_gemm_tf32");
        float[] a = tf32(g.floats(256, -1, 1)), bt = tf32(g.floats(128, -1, 1)), c0 = g.floats(128, -1, 1);
        return kernel("mma_gemm_tf32").describe("mma.sync m16n8k8/m16n8k4 tf32 GEMM, f32 accumulation (sm_80+)")
                .minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("c0", c0)
                .out("c", Elem.F32, 128, MMA_F32).out("c4", Elem.F32, 128, MMA_F32)
                .reference(io -> {
                    float[] c = io.f32("c"), c4 = io.f32("c4");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 8; j++) {
                            double s = 0;
                            for (int k = 0; k < 16; k++) {
                                s += (double) a[16 * i + k] * bt[16 * j + k];
                            }
                            c[8 * i + j] = (float) (s + c0[8 * i + j]);
                            c4[8 * i + j] = c[8 * i + j];
                        }
                    }
                });
    }

    /**
     * C = A B + C0 for M = N = 16, K = 32 with wmma.mma.sync.aligned.row.col.m16n16k16 (sm_80+: HMMA.16816, sm_75:
     * HMMA.1688 pairs), one warp, two k-steps: f16 inputs with f32 accumulation ({@code c}) and with f16 accumulation
     * ({@code h}). The kernel loads its fragments in ptxas's register layout (see its source); layouts as
     * {@link #mmaGemmF16()}, C0 and H0 row-major 16 x 16.
     */
    static KernelCase wmmaGemmF16() {
        Gen g = new Gen("wmma_gemm_f16");
        short[] a = small(g, 512, false), bt = small(g, 512, false);
        float[] c0 = g.floats(256, -1, 1);
        short[] h0 = small(g, 256, false);
        return kernel("wmma_gemm_f16").describe("wmma.mma m16n16k16 f16 GEMM, f32 and f16 accumulation (sm_75+)")
                .grid(1).block(32)
                .in("a", Elem.F16, Bytes.of(a)).in("bt", Elem.F16, Bytes.of(bt))
                .in("c0", c0).in("h0", Elem.F16, Bytes.of(h0))
                .out("c", Elem.F32, 256, MMA_F32).out("h", Elem.F16, 256, MMA_F16)
                .reference(io -> {
                    float[] c = io.f32("c");
                    short[] h = io.u16("h");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 16; j++) {
                            double s = 0;
                            for (int k = 0; k < 32; k++) {
                                s += (double) RefMath.halfToFloat(a[32 * i + k]) * RefMath.halfToFloat(bt[32 * j + k]);
                            }
                            c[16 * i + j] = (float) (s + c0[16 * i + j]);
                            h[16 * i + j] = RefMath.toHalf(s + RefMath.halfToFloat(h0[16 * i + j]));
                        }
                    }
                });
    }

    /**
     * C = A B + C0 for M = N = 16, K = 16 with wmma.mma.sync.aligned.m16n16k8.row.col tf32 (sm_80+: HMMA.1684.F32.TF32
     * chains), one warp, two k-steps; fragments in ptxas's layout (see the kernel's source), tf32 inputs as in
     * {@link #mmaGemmTf32()}, all matrices row-major 16 x 16 (B transposed).
     */
    static KernelCase wmmaGemmTf32() {
        Gen g = new Gen("wmma_gemm_tf32");
        float[] a = tf32(g.floats(256, -1, 1)), bt = tf32(g.floats(256, -1, 1)), c0 = g.floats(256, -1, 1);
        return kernel("wmma_gemm_tf32").describe("wmma.mma m16n16k8 tf32 GEMM, f32 accumulation (sm_80+)")
                .minSm(80).grid(1).block(32)
                .in("a", a).in("bt", bt).in("c0", c0)
                .out("c", Elem.F32, 256, MMA_F32)
                .reference(io -> {
                    float[] c = io.f32("c");
                    for (int i = 0; i < 16; i++) {
                        for (int j = 0; j < 16; j++) {
                            double s = 0;
                            for (int k = 0; k < 16; k++) {
                                s += (double) a[16 * i + k] * bt[16 * j + k];
                            }
                            c[16 * i + j] = (float) (s + c0[16 * i + j]);
                        }
                    }
                });
    }

    /** f32 values with the low 13 fraction bits cleared: tf32 values. */
    private static float[] tf32(float[] f) {
        float[] t = new float[f.length];
        for (int i = 0; i < f.length; i++) {
            t[i] = Float.intBitsToFloat(Float.floatToRawIntBits(f[i]) & 0xffffe000);
        }
        return t;
    }

    /** 16-bit values (f16, or bf16 when {@code bf16}) in [-1, 1]. */
    private static short[] small(Gen g, int n, boolean bf16) {
        float[] f = g.floats(n, -1, 1);
        short[] h = new short[n];
        for (int i = 0; i < n; i++) {
            h[i] = bf16 ? RefMath.toBf16(f[i]) : RefMath.toHalf(f[i]);
        }
        return h;
    }
}
