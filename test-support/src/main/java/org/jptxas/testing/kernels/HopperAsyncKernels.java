package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about Hopper's asynchronous copies and barriers (mbarrier, cp.async.bulk; sm_90). */
final class HopperAsyncKernels {
    private HopperAsyncKernels() {}

    static final int TILES = 7;

    static List<KernelCase> all() {
        return List.of(bulkCopyMbarrier());
    }

    /**
     * A 2-stage pipeline of bulk copies over {@link #TILES} tiles of 256 floats: thread 0 arms a stage's mbarrier
     * (arrive.expect_tx 1024) and copies the tile global -> shared with completion on it; all 64 threads wait on the
     * phase parity, and out tile k, element j is {@code 2 in[256k + 255 - j] + k}, written back from a second
     * shared buffer with a shared -> global bulk copy (bulk_group). Integral inputs: exact.
     */
    static KernelCase bulkCopyMbarrier() {
        Gen g = new Gen("bulk_copy_mbarrier");
        float[] in = g.integralFloats(256 * TILES, -1000, 1000);
        return kernel("bulk_copy_mbarrier").describe("cp.async.bulk global<->shared with mbarrier expect_tx/complete_tx,"
                        + " try_wait.parity, bulk_group commit/wait (sm_90)")
                .minSm(90).grid(1).block(64).in("in", in).out("out", Elem.F32, 256 * TILES).s32("tiles", TILES)
                .reference(io -> {
                    float[] out = io.f32("out");
                    for (int k = 0; k < TILES; k++) {
                        for (int j = 0; j < 256; j++) {
                            out[256 * k + j] = in[256 * k + 255 - j] * 2f + k;
                        }
                    }
                });
    }
}
