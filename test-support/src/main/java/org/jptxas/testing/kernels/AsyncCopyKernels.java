package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about asynchronous copies (cp.async). */
final class AsyncCopyKernels {
    private AsyncCopyKernels() {}

    static final int TILES = 5;
    static final int VALID = 40;

    static List<KernelCase> all() {
        return List.of(cpAsyncPipeline());
    }

    /**
     * A 2-stage cp.async pipeline over {@link #TILES} tiles of 64 float4 (16-byte .cg copies) plus a tail of 64 floats
     * per tile (4-byte .ca copies whose source size is 0 for threads {@code >= valid}: zero-filled). Thread t sums
     * the element 63 - t of every tile (another thread's copy). Integral inputs: the sums are exact.
     */
    static KernelCase cpAsyncPipeline() {
        Gen g = new Gen("cp_async_pipeline");
        float[] in = g.integralFloats(320 * TILES, -1000, 1000);
        return kernel("cp_async_pipeline").describe("2-stage cp.async pipeline: .cg 16-byte and zero-filling .ca copies,"
                        + " commit_group, wait_group 1/0 (sm_80+)")
                .minSm(80).grid(1).block(64).in("in", in).out("out", Elem.F32, 5 * 64).s32("tiles", TILES)
                .s32("valid", VALID)
                .reference(io -> {
                    float[] out = io.f32("out");
                    for (int t = 0; t < 64; t++) {
                        int r = 63 - t;
                        float[] acc = new float[5];
                        for (int k = 0; k < TILES; k++) {
                            for (int c = 0; c < 4; c++) {
                                acc[c] += in[4 * (64 * k + r) + c];
                            }
                            acc[4] += r < VALID ? in[256 * TILES + 64 * k + r] : 0f; // row r was copied by thread r
                        }
                        System.arraycopy(acc, 0, out, 5 * t, 5);
                    }
                });
    }
}
