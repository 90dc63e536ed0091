package org.jptxas.simulator.ptx;

import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.Region;

/** One thread block: its shared memory, threads and named barriers. */
final class CtaState {
    static final int BARRIERS = 16;

    final Dim3Point index;
    final Region shared;
    ThreadState[] threads;
    /** Threads arrived at each barrier, and the count each waits for (-1: every live thread). */
    final int[] arrived = new int[BARRIERS];
    final int[] expected = new int[BARRIERS];
    int exitedThreads;
    /** Bulk copies in flight on this block's mbarriers (created by the first). */
    org.jptxas.simulator.exec.BulkCopies bulkCopies;
    /** The cluster of a cluster launch ({@link PtxCluster}) and this block's rank in it; null and 0 otherwise. */
    PtxCluster cluster;
    int rank;
    /** Each warp's outstanding wgmma.mma_async results, by warp number (created by its first multiply). */
    final java.util.Map<Integer, WgmmaInstruction.Outstanding> warpgroupMultiplies = new java.util.HashMap<>();

    CtaState(Dim3Point index, Region shared) {
        this.index = index;
        this.shared = shared;
        java.util.Arrays.fill(expected, -1);
    }

    int liveThreads() {
        return threads.length - exitedThreads;
    }
}
