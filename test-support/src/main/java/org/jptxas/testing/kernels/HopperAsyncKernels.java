package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about Hopper's asynchronous copies and barriers (mbarrier, cp.async.bulk; sm_90). */
final class HopperAsyncKernels {
    private HopperAsyncKernels() {}

    static final int TILES = 7;

    static List<KernelCase> all() {
        return List.of(bulkCopyMbarrier(), tmaTile2d());
    }

    static final int TMA_COLS = 40;
    static final int TMA_ROWS = 48;

    /**
     * Tensor-memory-access copies: block (bx, by) of a 3x6 grid loads the 16x8 tile at (16 bx, 8 by) of a
     * {@value #TMA_COLS}x{@value #TMA_ROWS} float matrix with {@code cp.async.bulk.tensor.2d} (tensor map in global
     * memory; columns from 40 on are out of bounds and read as zeros), waits on the mbarrier the copy's 512 bytes
     * complete, stores {@code 3 v + block} into a 48x48 grid of tiles, and writes the same values back through a
     * second tensor map of a 40x48 matrix with the shared -> global tensor copy (out-of-bounds columns are skipped).
     */
    static KernelCase tmaTile2d() {
        Gen g = new Gen("tma_tile_2d");
        float[] in = g.integralFloats(TMA_COLS * TMA_ROWS, -1000, 1000);
        return kernel("tma_tile_2d").describe("cp.async.bulk.tensor.2d global -> shared::cluster completing on an"
                        + " mbarrier (out-of-bounds elements zero) and shared::cta -> global bulk_group (sm_90)")
                .minSm(90).grid(3, 6, 1).block(128).in("in", in).out("back", Elem.F32, TMA_COLS * TMA_ROWS)
                .tensorMapF32("in_map", "in", TMA_COLS, TMA_ROWS, 16, 8)
                .tensorMapF32("back_map", "back", TMA_COLS, TMA_ROWS, 16, 8)
                .out("out", Elem.F32, 48 * 48)
                .reference(io -> {
                    float[] out = io.f32("out");
                    float[] back = io.f32("back");
                    for (int y = 0; y < TMA_ROWS; y++) {
                        for (int x = 0; x < 48; x++) {
                            float v = (x < TMA_COLS ? in[y * TMA_COLS + x] : 0f) * 3f + (y / 8 * 3 + x / 16);
                            out[y * 48 + x] = v;
                            if (x < TMA_COLS) {
                                back[y * TMA_COLS + x] = v;
                            }
                        }
                    }
                });
    }

    /** The shapes {@code tma_tile_nd} views its tensor in (ranks 3, 4, 5; dimension 0 fastest), boxes, coordinates. */
    private static final List<List<Integer>> ND_DIMS = List.of(List.of(12, 4, 12), List.of(12, 4, 3, 4),
            List.of(12, 4, 3, 2, 2));
    private static final List<List<Integer>> ND_BOX = List.of(List.of(8, 2, 4), List.of(4, 4, 2, 2),
            List.of(4, 2, 2, 2, 2));
    private static final List<List<Integer>> ND_AT = List.of(List.of(8, 3, 10), List.of(10, 0, 2, -1),
            List.of(-1, 3, 1, 1, 0));

    /**
     * Tensor copies of ranks 3, 4 and 5: block r loads the 64-element box {@link #ND_BOX}[r] at {@link #ND_AT}[r]
     * (partly out of bounds, one coordinate negative: those elements read as zeros) of a 576-float tensor viewed as
     * {@link #ND_DIMS}[r], writes {@code 2 v + r} to {@code out[64 r + t]}, and stores the same values back through
     * a map of the same shape over {@code back} (out-of-bounds elements skipped; the three blocks' elements are
     * disjoint).
     */
    static KernelCase tmaTileNd() {
        Gen g = new Gen("tma_tile_nd");
        float[] in = g.integralFloats(576, -1000, 1000);
        var b = kernel("tma_tile_nd").describe("cp.async.bulk.tensor.3d/4d/5d global -> shared::cluster (out-of-bounds"
                        + " and negative coordinates) and shared::cta -> global bulk_group (sm_90)")
                .minSm(90).grid(3, 1, 1).block(64).in("in", in).out("back", Elem.F32, 576);
        for (String of : List.of("in", "back")) {
            for (int r = 0; r < 3; r++) {
                b.tensorMapF32(of + (r + 3), of, ND_DIMS.get(r), ND_BOX.get(r));
            }
        }
        return b.out("out", Elem.F32, 3 * 64).reference(io -> {
            float[] out = io.f32("out");
            float[] back = io.f32("back");
            for (int r = 0; r < 3; r++) {
                List<Integer> dims = ND_DIMS.get(r);
                List<Integer> box = ND_BOX.get(r);
                for (int t = 0; t < 64; t++) {
                    int rest = t;
                    int linear = 0;
                    int scale = 1;
                    boolean inside = true;
                    for (int d = 0; d < dims.size(); d++) { // box element t, dimension 0 fastest
                        int c = ND_AT.get(r).get(d) + rest % box.get(d);
                        rest /= box.get(d);
                        inside &= c >= 0 && c < dims.get(d);
                        linear += c * scale;
                        scale *= dims.get(d);
                    }
                    float v = (inside ? in[linear] : 0f) * 2f + r;
                    out[64 * r + t] = v;
                    if (inside) {
                        back[linear] = v;
                    }
                }
            }
        });
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
