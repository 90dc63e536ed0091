package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about warps and blocks: shuffles, votes, match, redux, barrier reductions, special registers. */
final class WarpKernels {
    private WarpKernels() {}

    static List<KernelCase> all() {
        return List.of(warpReduceShfl(), scanWarpShfl(), shflIdx(), warpVote(), warpMatch(), warpRedux(), syncCount(),
                specialRegs(), ldmatrixFrag());
    }

    /**
     * ldmatrix x1, x2, x4 and x4.trans over four 8x8 matrices of 16-bit elements (lane t gives row t % 8 of matrix
     * t / 8): lane t receives, of each matrix, the elements (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1), low half
     * first; transposed, the elements (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4).
     */
    static KernelCase ldmatrixFrag() {
        Gen g = new Gen("ldmatrix_frag");
        return kernel("ldmatrix_frag").describe("ldmatrix.sync.aligned.m8n8 x1/x2/x4 and x4.trans (sm_75+)").grid(1)
                .block(32).in("in", g.bits32(128)).out("out", Elem.U32, 11 * 32)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int t = 0; t < 32; t++) {
                        int r = t / 4, c = 2 * (t % 4);
                        int[] row = new int[4], trans = new int[4];
                        for (int m = 0; m < 4; m++) {
                            row[m] = element(in, m, r, c) | element(in, m, r, c + 1) << 16;
                            trans[m] = element(in, m, c, r) | element(in, m, c + 1, r) << 16;
                        }
                        int[] o = {row[0], row[0], row[1], row[0], row[1], row[2], row[3], trans[0], trans[1], trans[2],
                            trans[3]};
                        System.arraycopy(o, 0, out, 11 * t, 11);
                    }
                });
    }

    /** Element (row, column) of 8x8 matrix m of 16-bit values packed two to a word, low half first. */
    private static int element(int[] words, int m, int row, int column) {
        int index = 64 * m + 8 * row + column;
        return words[index / 2] >>> (16 * (index % 2)) & 0xffff;
    }

    static KernelCase warpReduceShfl() {
        Gen g = new Gen("warp_reduce_shfl");
        return kernel("warp_reduce_shfl").describe("shfl.sync.bfly sum and max").grid(2).block(128)
                .in("in", g.ints(256, -1000, 1000)).out("sums", Elem.I32, 8).out("maxes", Elem.I32, 8)
                .reference(io -> {
                    int[] in = io.i32("in"), sums = io.i32("sums"), maxes = io.i32("maxes");
                    for (int w = 0; w < 8; w++) {
                        int s = 0, m = Integer.MIN_VALUE;
                        for (int l = 0; l < 32; l++) {
                            s += in[w * 32 + l];
                            m = Math.max(m, in[w * 32 + l]);
                        }
                        sums[w] = s;
                        maxes[w] = m;
                    }
                });
    }

    static KernelCase scanWarpShfl() {
        Gen g = new Gen("scan_warp_shfl");
        return kernel("scan_warp_shfl").describe("shfl.sync.up inclusive scan").grid(1).block(128)
                .in("in", g.integralFloats(128, -50, 50)).out("out", Elem.F32, 128)
                .reference(io -> {
                    float[] in = io.f32("in"), out = io.f32("out");
                    for (int w = 0; w < 4; w++) {
                        float s = 0;
                        for (int l = 0; l < 32; l++) {
                            s += in[w * 32 + l];
                            out[w * 32 + l] = s;
                        }
                    }
                });
    }

    static KernelCase shflIdx() {
        Gen g = new Gen("shfl_idx");
        return kernel("shfl_idx").describe("shfl.sync.idx/.down with sub-warp widths").grid(1).block(64)
                .in("in", g.bits32(64)).in("src", g.ints(64, 0, 40)).out("out", Elem.I32, 3 * 64)
                .reference(io -> {
                    int[] in = io.i32("in"), src = io.i32("src"), out = io.i32("out");
                    for (int i = 0; i < 64; i++) {
                        int lane = i & 31, base = i & ~31;
                        out[3 * i] = in[base + RefMath.shflSource("idx", lane, src[i], 0x1f)];
                        out[3 * i + 1] = in[base + RefMath.shflSource("idx", lane, src[i], ((32 - 8) << 8) | 0x1f)];
                        out[3 * i + 2] = in[base + RefMath.shflSource("down", lane, 3, ((32 - 16) << 8) | 0x1f)];
                    }
                });
    }

    static KernelCase warpVote() {
        Gen g = new Gen("warp_vote");
        return kernel("warp_vote").describe("vote.sync all/any/ballot, activemask after an early exit").grid(2).block(64)
                .in("in", g.ints(128, -5, 20)).out("out", Elem.U32, 16)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int w = 0; w < 4; w++) {
                        int mask = (w & 1) != 0 ? 0x7fffffff : -1;
                        int ballot = 0;
                        for (int l = 0; l < 32; l++) {
                            if ((mask >>> l & 1) != 0 && in[w * 32 + l] > 0) {
                                ballot |= 1 << l;
                            }
                        }
                        out[4 * w] = ballot == mask ? 1 : 0;
                        out[4 * w + 1] = ballot != 0 ? 1 : 0;
                        out[4 * w + 2] = ballot;
                        out[4 * w + 3] = mask;
                    }
                });
    }

    static KernelCase warpMatch() {
        Gen g = new Gen("warp_match");
        int[] keys = g.ints(64, 0, 4);
        keys[32 + 7] += 256; // warp 1: one lane differs in the bits match.all looks at
        return kernel("warp_match").describe("match.any.sync and match.all.sync").grid(1).block(64)
                .in("keys", keys).out("any_out", Elem.U32, 64).out("all_out", Elem.U32, 64)
                .reference(io -> {
                    int[] k = io.i32("keys"), any = io.i32("any_out"), all = io.i32("all_out");
                    for (int w = 0; w < 2; w++) {
                        boolean same = true;
                        for (int l = 0; l < 32; l++) {
                            same &= (k[w * 32 + l] >> 8) == (k[w * 32] >> 8);
                        }
                        for (int l = 0; l < 32; l++) {
                            int m = 0;
                            for (int o = 0; o < 32; o++) {
                                if (k[w * 32 + o] == k[w * 32 + l]) {
                                    m |= 1 << o;
                                }
                            }
                            any[w * 32 + l] = m;
                            all[w * 32 + l] = same ? -1 : 1;
                        }
                    }
                });
    }

    static KernelCase warpRedux() {
        Gen g = new Gen("warp_redux");
        return kernel("warp_redux").describe("redux.sync add/min/max/and/or/xor").minSm(80).grid(1).block(64)
                .in("in", Elem.U32, Bytes.of(g.bits32(64))).out("out", Elem.U32, 8)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int w = 0; w < 2; w++) {
                        int add = 0, umin = -1, smax = Integer.MIN_VALUE, and = -1, or = 0, xor = 0;
                        for (int l = 0; l < 32; l++) {
                            int v = in[w * 32 + l];
                            add += v;
                            umin = Integer.compareUnsigned(v, umin) < 0 ? v : umin;
                            smax = Math.max(smax, v);
                            and &= v;
                            or |= v;
                            xor ^= v;
                        }
                        out[4 * w] = add;
                        out[4 * w + 1] = umin;
                        out[4 * w + 2] = smax;
                        out[4 * w + 3] = and ^ or ^ xor;
                    }
                });
    }

    static KernelCase syncCount() {
        Gen g = new Gen("sync_count");
        int[] in = g.ints(256, -50, 100);
        int[] positive = g.ints(128, 1, 90);
        System.arraycopy(positive, 0, in, 128, 128); // block 1: all positive, none above 90
        return kernel("sync_count").describe("bar.red.popc/.and/.or").grid(2).block(128)
                .in("in", in).out("out", Elem.I32, 6)
                .reference(io -> {
                    int[] x = io.i32("in"), out = io.i32("out");
                    for (int b = 0; b < 2; b++) {
                        int c = 0, all = 1, any = 0;
                        for (int t = 0; t < 128; t++) {
                            int v = x[b * 128 + t];
                            c += v > 0 ? 1 : 0;
                            all &= v > 0 ? 1 : 0;
                            any |= v > 90 ? 1 : 0;
                        }
                        out[3 * b] = c;
                        out[3 * b + 1] = all;
                        out[3 * b + 2] = any;
                    }
                });
    }

    static KernelCase specialRegs() {
        int bx = 8, by = 4, bz = 2, gx = 2, gy = 2, gz = 2;
        int threads = bx * by * bz * gx * gy * gz;
        return kernel("special_regs").describe("%tid/%ntid/%ctaid/%nctaid in 3-D, %laneid").grid(gx, gy, gz).block(bx, by, bz)
                .out("out", Elem.U32, 4 * threads)
                .reference(io -> {
                    int[] out = io.i32("out");
                    for (int cz = 0; cz < gz; cz++) {
                        for (int cy = 0; cy < gy; cy++) {
                            for (int cx = 0; cx < gx; cx++) {
                                for (int tz = 0; tz < bz; tz++) {
                                    for (int ty = 0; ty < by; ty++) {
                                        for (int tx = 0; tx < bx; tx++) {
                                            int lin = tx + bx * (ty + by * tz);
                                            int blk = cx + gx * (cy + gy * cz);
                                            int gi = blk * bx * by * bz + lin;
                                            out[4 * gi] = tx | ty << 8 | tz << 16;
                                            out[4 * gi + 1] = cx | cy << 8 | cz << 16;
                                            out[4 * gi + 2] = bx | by << 8 | bz << 16 | gx << 24;
                                            out[4 * gi + 3] = (lin & 31) | gy << 8 | gz << 16;
                                        }
                                    }
                                }
                            }
                        }
                    }
                });
    }
}
