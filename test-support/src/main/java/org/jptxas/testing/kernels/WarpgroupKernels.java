package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/**
 * {@code wgmma_gemm_f16}: C (64 x 128, f32) = A (64 x 32, f16, row-major) B (32 x 128, f16, given transposed: row n of
 * {@code bt} is column n of B) by one warpgroup with two chained {@code wgmma.mma_async m64n128k16 f32.f16.f16}
 * (the first with scale-d 0), operands copied to shared memory with ld.global/st.shared (no TMA), K-major without
 * swizzle. Its PTX (hand-written, {@code .target sm_90a}) is a cli test resource, not a {@link KernelSuite#all()}
 * kernel: the suite's kernels run on every SM from their {@code minSm} (sm_75 ... sm_90) and through the PTX
 * interpreter, and a kernel for the arch-specific sm_90a fits neither (nor does the interpreter run wgmma yet).
 * Inputs are multiples of 1/8 in [-1, 1], so every product and partial sum is exact in f32: the result does not
 * depend on the tensor cores' summation order or truncation, and is compared bit for bit.
 */
public final class WarpgroupKernels {
    private WarpgroupKernels() {}

    public static KernelCase wgmmaGemmF16() {
        Gen g = new Gen("wgmma_gemm_f16");
        short[] a = eighths(g, 64 * 32), bt = eighths(g, 128 * 32);
        return kernel("wgmma_gemm_f16").describe("wgmma m64n128k16 f32.f16.f16 GEMM from shared-memory descriptors"
                        + " (sm_90a)").minSm(90).grid(1).block(128)
                .in("a", Elem.F16, Bytes.of(a)).in("bt", Elem.F16, Bytes.of(bt)).out("c", Elem.F32, 64 * 128)
                .reference(io -> {
                    float[] c = io.f32("c");
                    for (int i = 0; i < 64; i++) {
                        for (int j = 0; j < 128; j++) {
                            double s = 0;
                            for (int k = 0; k < 32; k++) {
                                s += (double) RefMath.halfToFloat(a[32 * i + k]) * RefMath.halfToFloat(bt[32 * j + k]);
                            }
                            c[128 * i + j] = (float) s;
                        }
                    }
                });
    }

    /** The kernels of this class that have folders in {@code kernels/} ({@link KernelSuite#archSpecific()}). */
    static List<KernelCase> suiteFolders() {
        return List.of(tmaWgmmaGemm(), tmaWgmmaGemmSw128(), tmaWgmmaGemmE4m3());
    }

    static final int TMA_M = 128;
    static final int TMA_N = 256;
    static final int TMA_K = 128;

    /**
     * {@code tma_wgmma_gemm} (kernels/, CUDA C for sm_90a): C ({@value #TMA_M} x {@value #TMA_N}, f32) = A
     * ({@value #TMA_M} x {@value #TMA_K}, f16, row-major) B (given transposed as {@code bt}, {@value #TMA_N} x
     * {@value #TMA_K}); a 2x2 grid of one-warpgroup blocks, each loading 32-wide K slices of A and B with
     * {@code cp.async.bulk.tensor.2d} (boxes of one 8-element K chunk: the no-swizzle K-major core-matrix layout),
     * waiting on the mbarrier's phase, multiplying with {@code wgmma m64n128k16 f32.f16.f16} and writing its 64 x 128
     * tile with one tensor store. Like {@link #wgmmaGemmF16()} it is not in {@link KernelSuite#all()} (sm_90a only);
     * inputs are eighths, so the result is exact whatever the summation order.
     */
    public static KernelCase tmaWgmmaGemm() {
        return tmaGemm("tma_wgmma_gemm", "TMA load -> wgmma m64n128k16 f32.f16.f16 -> TMA store GEMM with mbarrier"
                + " waits (sm_90a)", 0, 8, 128);
    }

    /**
     * {@code tma_wgmma_gemm_sw128}: the same GEMM as Triton and CUTLASS lay it out: tensor maps with 128-byte swizzle
     * (boxes of 64 K elements = one 128-byte row per matrix row), swizzled wgmma descriptors advanced 32 bytes per
     * K step, and the result leaving in two 64-column tensor stores.
     */
    public static KernelCase tmaWgmmaGemmSw128() {
        return tmaGemm("tma_wgmma_gemm_sw128", "TMA load -> wgmma -> TMA store GEMM on 128-byte swizzled shared"
                + " tiles (sm_90a)", 3, 64, 64);
    }

    /**
     * {@code tma_wgmma_gemm_e4m3}: {@link #tmaWgmmaGemmSw128()}'s kernel on e4m3 bytes (its source includes that
     * one): A {@value #TMA_M} x 256 and {@code bt} {@value #TMA_N} x 256, wgmma m64n128k32 f32.e4m3.e4m3 (QGMMA),
     * 128 K elements per swizzled 128-byte row. The inputs are eighths, which e4m3 holds exactly.
     */
    public static KernelCase tmaWgmmaGemmE4m3() {
        Gen g = new Gen("tma_wgmma_gemm_e4m3");
        int k = 2 * TMA_K;
        byte[] a = e4m3Eighths(g, TMA_M * k), bt = e4m3Eighths(g, TMA_N * k);
        return tmaGemm("tma_wgmma_gemm_e4m3", "TMA load -> wgmma m64n128k32 f32.e4m3.e4m3 -> TMA store GEMM on"
                + " 128-byte swizzled shared tiles (sm_90a)", Elem.U8, a, bt, k, 0, 1, 3, 128, 64,
                (x, i) -> e4m3Value(x[i]));
    }

    /** The GEMM of these kernels: A and bt boxes of {@code boxK} K elements, C boxes {@code boxN} columns wide. */
    private static KernelCase tmaGemm(String name, String description, int swizzle, int boxK, int boxN) {
        Gen g = new Gen(name);
        short[] a = eighths(g, TMA_M * TMA_K), bt = eighths(g, TMA_N * TMA_K);
        return tmaGemm(name, description, Elem.F16, Bytes.of(a), Bytes.of(bt), TMA_K, 6, 2, swizzle, boxK, boxN,
                (x, i) -> RefMath.halfToFloat((short) (x[2 * i] & 0xff | x[2 * i + 1] << 8)));
    }

    /** The value of element {@code i} of a matrix's bytes. */
    private interface ElementValue {
        double of(byte[] bytes, int i);
    }

    private static KernelCase tmaGemm(String name, String description, Elem elem, byte[] a, byte[] bt, int k,
            int dataType, int bytes, int swizzle, int boxK, int boxN, ElementValue value) {
        return kernel(name).describe(description).minSm(90).grid(2, 2, 1).block(128)
                .in("a", elem, a).in("bt", elem, bt).out("c", Elem.F32, TMA_M * TMA_N)
                .tensorMap2d("a_map", "a", dataType, bytes, k, TMA_M, boxK, 64, swizzle)
                .tensorMap2d("bt_map", "bt", dataType, bytes, k, TMA_N, boxK, 128, swizzle)
                .tensorMap2d("c_map", "c", 7, 4, TMA_N, TMA_M, boxN, 64, 0)
                .reference(io -> {
                    float[] c = io.f32("c");
                    for (int i = 0; i < TMA_M; i++) {
                        for (int j = 0; j < TMA_N; j++) {
                            double s = 0;
                            for (int q = 0; q < k; q++) {
                                s += value.of(a, k * i + q) * value.of(bt, k * j + q);
                            }
                            c[TMA_N * i + j] = (float) s;
                        }
                    }
                });
    }

    /** {@code n} e4m3 bytes of k/8 for random k in [-8, 8] (sign, 4-bit exponent biased by 7, 3-bit fraction). */
    private static byte[] e4m3Eighths(Gen g, int n) {
        float[] f = g.floats(n, -1, 1);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            int k = Math.round(f[i] * 8);
            if (k != 0) {
                int e = 31 - Integer.numberOfLeadingZeros(Math.abs(k)); // |k| / 8 = 1.m x 2^(e - 3)
                int m = (Math.abs(k) << 3 >> e) & 7;
                b[i] = (byte) ((k < 0 ? 0x80 : 0) | (e - 3 + 7) << 3 | m);
            }
        }
        return b;
    }

    /** The value of a normal or zero e4m3 byte. */
    private static double e4m3Value(byte b) {
        int e = b >> 3 & 15, m = b & 7;
        double v = e == 0 ? m / 8.0 * Math.pow(2, -6) : (1 + m / 8.0) * Math.pow(2, e - 7);
        return (b & 0x80) != 0 ? -v : v;
    }

    /** {@code n} f16 values k/8 for random k in [-8, 8]. */
    private static short[] eighths(Gen g, int n) {
        float[] f = g.floats(n, -1, 1);
        short[] h = new short[n];
        for (int i = 0; i < n; i++) {
            h[i] = RefMath.toHalf(Math.round(f[i] * 8) / 8f);
        }
        return h;
    }
}
