package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

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
