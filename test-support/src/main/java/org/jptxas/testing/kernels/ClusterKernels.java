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
        return List.of(clusterReduceDsmem());
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
}
