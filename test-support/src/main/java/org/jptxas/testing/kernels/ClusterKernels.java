package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about thread-block clusters and distributed shared memory (sm_90). */
final class ClusterKernels {
    private ClusterKernels() {}

    static final int CLUSTER = 4;
    static final int BLOCKS = 8;
    static final int THREADS = 128;

    static List<KernelCase> all() {
        return List.of(clusterReduceDsmem(), clusterGenericShared(), clusterRemoteMbarrier());
    }

    /**
     * {@value #BLOCKS} blocks of {@value #THREADS} threads in clusters of {@value #CLUSTER}: each block reduces its
     * ints into shared memory; after a cluster barrier rank 0 sums the blocks' partials through mapa and
     * ld.shared::cluster ({@code sums[2c]}) while the other ranks red.shared::cluster theirs into rank 0's
     * accumulator ({@code sums[2c+1]}, read after a second cluster barrier). {@code ids[b]} packs block b's
     * %cluster_ctarank, %cluster_ctaid.x, %cluster_nctarank, %clusterid.x and %is_explicit_cluster.
     */
    static KernelCase clusterReduceDsmem() {
        Gen g = new Gen("cluster_reduce_dsmem");
        int[] in = g.ints(BLOCKS * THREADS, -1000, 1000);
        return kernel("cluster_reduce_dsmem").describe("thread-block clusters: %cluster_* registers, barrier.cluster,"
                        + " mapa + ld/red.shared::cluster over distributed shared memory (sm_90)")
                .minSm(90).grid(BLOCKS).block(THREADS).cluster(CLUSTER, 1, 1).in("in", in)
                .out("sums", Elem.I32, 2 * BLOCKS / CLUSTER).out("ids", Elem.U32, BLOCKS)
                .reference(io -> {
                    int[] sums = io.i32("sums");
                    int[] ids = io.i32("ids");
                    for (int b = 0; b < BLOCKS; b++) {
                        int partial = 0;
                        for (int t = 0; t < THREADS; t++) {
                            partial += in[b * THREADS + t];
                        }
                        int c = b / CLUSTER, rank = b % CLUSTER;
                        sums[2 * c] += partial;
                        sums[2 * c + 1] += partial;
                        ids[b] = rank | rank << 4 | CLUSTER << 8 | c << 16 | 1 << 24;
                    }
                });
    }
    static final int PAIR_BLOCKS = 4;
    static final int PAIR_THREADS = 64;

    /**
     * {@value #PAIR_BLOCKS} blocks of {@value #PAIR_THREADS} threads in clusters of 2, with a block's own shared
     * memory reached the ways that need its rank in the shared address: each thread adds {@code 1000 * (rank + 1)}
     * to its element through a generic pointer, records {@code getctarank} of that pointer ({@code ranks}) and reads
     * the element back through {@code ld.shared::cluster} at its plain shared address ({@code out[2i]}); after a
     * cluster barrier it reads the neighbour block's element through the generic {@code mapa} pointer
     * ({@code out[2i+1]}).
     */
    static KernelCase clusterGenericShared() {
        Gen g = new Gen("cluster_generic_shared");
        int n = PAIR_BLOCKS * PAIR_THREADS;
        int[] in = g.ints(n, -100000, 100000);
        return kernel("cluster_generic_shared").describe("thread-block clusters: generic pointers, getctarank and"
                        + " ld.shared::cluster at a block's own shared addresses, generic mapa (sm_90)")
                .minSm(90).grid(PAIR_BLOCKS).block(PAIR_THREADS).cluster(2, 1, 1).in("in", in)
                .in("scratch", new int[n]).out("out", Elem.I32, 2 * n).out("ranks", Elem.U32, n)
                .s32("useShared", 1)
                .reference(io -> {
                    int[] out = io.i32("out");
                    int[] ranks = io.i32("ranks");
                    for (int b = 0; b < PAIR_BLOCKS; b++) {
                        int rank = b % 2, other = b - rank + (1 - rank);
                        for (int t = 0; t < PAIR_THREADS; t++) {
                            int i = b * PAIR_THREADS + t;
                            out[2 * i] = in[i] + 1000 * (rank + 1);
                            out[2 * i + 1] = in[other * PAIR_THREADS + t] + 1000 * (2 - rank);
                            ranks[i] = rank;
                        }
                    }
                });
    }

    /**
     * {@value #PAIR_BLOCKS} blocks of {@value #PAIR_THREADS} threads in clusters of 2: rank 0 stores
     * {@code 3 * in[i] + 1} into rank 1's shared array and signals rank 1's mbarrier remotely
     * ({@code mbarrier.arrive[.expect_tx].release.cluster.shared::cluster}, one arrival, a count, and expected bytes
     * it completes with {@code complete_tx}); rank 1 waits on its barrier and writes {@code buf[t] - t}. A second
     * barrier of rank 1 expects 768 bytes, which rank 0 completes with {@code st.async.v2} of
     * {@code {3 * in[i] - 7, i}} into rank 1's {@code pairs} and {@code red.async.add} of {@code in[i]} into its
     * {@code sums[cluster]}.
     */
    static KernelCase clusterRemoteMbarrier() {
        Gen g = new Gen("cluster_remote_mbarrier");
        int n = PAIR_BLOCKS / 2 * PAIR_THREADS;
        int[] in = g.ints(n, -100000, 100000);
        return kernel("cluster_remote_mbarrier").describe("thread-block clusters: a block arrives on another block's"
                        + " mbarrier (shared::cluster arrive, expect_tx, complete_tx) after storing into its shared"
                        + " memory, and completes another barrier's bytes with st.async and red.async; the other"
                        + " waits on them (sm_90)")
                .minSm(90).grid(PAIR_BLOCKS).block(PAIR_THREADS).cluster(2, 1, 1).in("in", in)
                .out("out", Elem.I32, n).out("pairs", Elem.I32, 2 * n).out("sums", Elem.I32, PAIR_BLOCKS / 2)
                .reference(io -> {
                    int[] out = io.i32("out");
                    int[] pairs = io.i32("pairs");
                    int[] sums = io.i32("sums");
                    for (int i = 0; i < n; i++) {
                        out[i] = 3 * in[i] + 1 - i % PAIR_THREADS;
                        pairs[2 * i] = 3 * in[i] - 7;
                        pairs[2 * i + 1] = i;
                        sums[i / PAIR_THREADS] += in[i];
                    }
                });
    }
}
