package org.jptxas.simulator.ptx;

import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.Region;

/**
 * Thread-block clusters in the interpreter (sm_90, the launch's {@code cluster}): the blocks of a cluster run
 * together (a round of each block's warps in turn), clusters one after the other.
 * <ul>
 *   <li>Shared::cluster addresses: the interpreter's shared addresses are window offsets; a {@code mapa}'d address
 *       carries the target block as {@code rank + 1} in its top byte, and an address with a zero top byte (every
 *       {@code .shared} variable's address) is the executing block's own. So shared::cta addresses are valid
 *       shared::cluster addresses of the own block, as PTX requires; the values {@code mapa} returns differ from the
 *       hardware's (rank, not rank + 1, in the top byte), which only a kernel that stores them would see.</li>
 *   <li>{@code barrier.cluster.arrive} counts an arrival of the thread; {@code barrier.cluster.wait} after the
 *       thread's {@code k}-th arrival waits until every thread of the cluster has arrived {@code k} times or
 *       exited (a wait without an arrival since the last one waits for its own arrival: a deadlock).</li>
 * </ul>
 */
final class PtxCluster {
    /** {@code ThreadState.barrier} of a thread at {@code barrier.cluster.wait} (named barriers are 0..15). */
    static final int WAITING = 64;
    private static final long OFFSET_MASK = 0xffffffL;

    private final CtaState[] members;
    private final int[][] arrivals;
    private final int[][] waitFor;
    private final int[][] waited;

    private PtxCluster(int size) {
        this.members = new CtaState[size];
        this.arrivals = new int[size][];
        this.waitFor = new int[size][];
        this.waited = new int[size][];
    }

    /** Runs {@code m}'s launch cluster by cluster. */
    static void run(Machine m) {
        Dim3 shape = m.launch.cluster().orElseThrow();
        Dim3 grid = m.launch.grid();
        Dim3 clusters = new Dim3(grid.x() / shape.x(), grid.y() / shape.y(), grid.z() / shape.z());
        int size = (int) shape.count();
        for (long c = 0; c < clusters.count(); c++) {
            Dim3Point q = clusters.point(c);
            PtxCluster cluster = new PtxCluster(size);
            for (int r = 0; r < size; r++) {
                int x = r % shape.x(), y = r / shape.x() % shape.y(), z = r / (shape.x() * shape.y());
                CtaState cta = m.newCta(new Dim3Point(q.x() * shape.x() + x, q.y() * shape.y() + y, q.z() * shape.z() + z));
                cta.cluster = cluster;
                cta.rank = r;
                cluster.members[r] = cta;
                cluster.arrivals[r] = new int[cta.threads.length];
                cluster.waitFor[r] = new int[cta.threads.length];
                cluster.waited[r] = new int[cta.threads.length];
            }
            while (true) {
                boolean progress = false, done = true;
                for (CtaState cta : cluster.members) {
                    if (cta.exitedThreads < cta.threads.length) {
                        progress |= m.sweep(cta);
                        done &= cta.exitedThreads == cta.threads.length;
                    }
                }
                if (done) {
                    break;
                }
                if (!progress && !cluster.release()) {
                    for (CtaState cta : cluster.members) {
                        if (cta.exitedThreads < cta.threads.length) {
                            throw new FaultException(new Fault.BarrierDeadlock(cta.index, m.deadlockDetail(cta)
                                    + "; " + cluster.waiting() + " thread(s) of the cluster wait at barrier.cluster.wait"));
                        }
                    }
                }
            }
        }
    }

    /** {@code barrier.cluster.arrive} ({@code arrive}) or {@code .wait} of thread {@code t}. */
    static void barrier(ThreadState t, boolean arrive) {
        PtxCluster c = t.cta.cluster;
        if (c == null) { // a launch without clusters: the block is a cluster of one (ptxas: BAR.SYNC 0 there)
            c = new PtxCluster(1);
            c.members[0] = t.cta;
            c.arrivals[0] = new int[t.cta.threads.length];
            c.waitFor[0] = new int[t.cta.threads.length];
            c.waited[0] = new int[t.cta.threads.length];
            t.cta.cluster = c;
        }
        int r = t.cta.rank;
        if (arrive) {
            c.arrivals[r][t.linear]++;
        } else {
            int a = c.arrivals[r][t.linear]; // without an arrival since its last wait: waits for its own (deadlock)
            c.waitFor[r][t.linear] = a > c.waited[r][t.linear] ? a : a + 1;
            c.waited[r][t.linear] = a;
            t.barrier = WAITING;
        }
        c.release();
    }

    /** After a thread of a cluster exited: the barrier may be complete. */
    static void exited(ThreadState t) {
        if (t.cta.cluster != null) {
            t.cta.cluster.release();
        }
    }

    private boolean release() {
        int least = Integer.MAX_VALUE;
        boolean any = false;
        for (int r = 0; r < members.length; r++) {
            for (ThreadState t : members[r].threads) {
                if (!t.exited) {
                    least = Math.min(least, arrivals[r][t.linear]);
                }
            }
        }
        for (int r = 0; r < members.length; r++) {
            for (ThreadState t : members[r].threads) {
                if (t.barrier == WAITING && waitFor[r][t.linear] <= least) {
                    t.barrier = -1;
                    any = true;
                }
            }
        }
        return any;
    }

    private int waiting() {
        int n = 0;
        for (CtaState cta : members) {
            for (ThreadState t : cta.threads) {
                n += t.barrier == WAITING ? 1 : 0;
            }
        }
        return n;
    }

    /** The shared memory a shared (window-offset) address {@code a} of thread {@code t} names. */
    static Region shared(ThreadState t, long a) {
        int top = (int) (a >>> 24);
        PtxCluster c = t.cta.cluster;
        if (top == 0 || c == null) {
            return t.cta.shared;
        }
        if (top > c.members.length) {
            throw new org.jptxas.simulator.memory.MemoryAccessException(
                    org.jptxas.simulator.memory.AddressSpace.SHARED, a, 1, "no block of rank " + (top - 1) + " in the cluster");
        }
        CtaState target = c.members[top - 1];
        if (target.exitedThreads == target.threads.length) {
            throw new org.jptxas.simulator.memory.MemoryAccessException(org.jptxas.simulator.memory.AddressSpace.SHARED, a, 1,
                    "the block of rank " + (top - 1) + " of the cluster has exited (distributed shared memory needs a"
                    + " cluster barrier before exit)");
        }
        return target.shared;
    }

    /** The block of rank {@code rank} in {@code t}'s cluster (the executing block's own without a cluster). */
    static CtaState member(ThreadState t, int rank) {
        PtxCluster c = t.cta.cluster;
        if (c == null) {
            if (rank != 0) {
                throw new InterpreterError("no block of rank " + rank + " outside a cluster launch");
            }
            return t.cta;
        }
        if (rank >= c.members.length) {
            throw new InterpreterError("no block of rank " + rank + " in the cluster");
        }
        return c.members[rank];
    }

    /** {@code a} without its block (see {@link #shared}). */
    static long offset(ThreadState t, long a) {
        return t.cta.cluster == null ? a : a & OFFSET_MASK;
    }

    /** {@code mapa}: the shared offset {@code a} in block {@code rank} (a generic address stays generic). */
    static long mapa(long a, long rank, boolean generic) {
        long base = generic ? Machine.SHARED_WINDOW : 0;
        long off = generic ? a - base : a;
        return base + ((off & OFFSET_MASK) | (rank + 1) << 24);
    }

    /** {@code getctarank}: the block a shared::cluster (or generic) address names. */
    static long ctaRank(ThreadState t, long a, boolean generic) {
        long off = generic ? a - Machine.SHARED_WINDOW : a;
        int top = (int) (off >>> 24 & 0xff);
        return top == 0 ? t.cta.rank : top - 1;
    }

    /** {@code %cluster_nctarank}. */
    static long size(ThreadState t) {
        return t.cta.cluster == null ? 1 : t.cta.cluster.members.length;
    }
}
