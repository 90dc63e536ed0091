package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/**
 * Kernels whose results depend on the warp reconverging after divergent control flow: full-warp shuffles after a
 * data-dependent if/else, votes after a loop with per-thread trip counts. Under the SASS emulator's strict Volta
 * convergence a missing BSSY/BSYNC makes the warp instruction miss live member threads (a fault).
 */
final class DivergenceKernels {
    private DivergenceKernels() {}

    static List<KernelCase> all() {
        return List.of(divergeShfl(), divergeVote());
    }

    static KernelCase divergeShfl() {
        Gen g = new Gen("diverge_shfl");
        return kernel("diverge_shfl").describe("shfl.sync xor/down after a divergent if/else with loops").grid(2)
                .block(64).in("in", g.ints(128, -1000, 1000)).out("out", Elem.I32, 128)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    int[] r = new int[128];
                    for (int t = 0; t < 128; t++) {
                        int v = in[t];
                        int x;
                        if ((v & 1) != 0) {
                            x = v * 3;
                            for (int k = 0; k < (v & 7); k++) {
                                x = x * 5 + k;
                            }
                        } else {
                            x = v + 11;
                            for (int k = 0; k < (v & 6); k++) {
                                x ^= x << 1;
                            }
                        }
                        r[t] = x;
                    }
                    int[] s = new int[128];
                    for (int t = 0; t < 128; t++) {
                        s[t] = r[t] + r[t ^ 1];
                    }
                    for (int t = 0; t < 128; t++) {
                        int lane = t & 31;
                        int src = lane + 2 < 32 ? t + 2 : t;
                        out[t] = s[t] + s[src];
                    }
                });
    }

    static KernelCase divergeVote() {
        Gen g = new Gen("diverge_vote");
        return kernel("diverge_vote").describe("vote.sync ballot/any/all after a loop with per-thread trip counts")
                .grid(2).block(64).in("in", g.ints(128, 1, 5000)).out("out", Elem.U32, 3 * 128)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    int[] steps = new int[128];
                    for (int t = 0; t < 128; t++) {
                        int v = in[t], n = 0;
                        while (v > 1 && n < 40) {
                            v = (v & 1) != 0 ? 3 * v + 1 : v >> 1;
                            n++;
                        }
                        steps[t] = n;
                    }
                    for (int w = 0; w < 4; w++) {
                        int ballot = 0;
                        boolean any = false, all = true;
                        for (int l = 0; l < 32; l++) {
                            int n = steps[w * 32 + l];
                            if (n > 10) {
                                ballot |= 1 << l;
                            }
                            any |= n > 30;
                            all &= n > 2;
                        }
                        for (int l = 0; l < 32; l++) {
                            int t = w * 32 + l;
                            out[3 * t] = ballot;
                            out[3 * t + 1] = any ? 1 : 0;
                            out[3 * t + 2] = all ? 1 : 0;
                        }
                    }
                });
    }
}
