package org.jptxas.simulator.sass;

import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;

/**
 * A launch with thread-block clusters (sm_90: the launch spec's {@code cluster_dims}, else the kernel's compile-time
 * cluster; a kernel with cluster barriers in a launch without either: clusters of one block): the blocks of one cluster run
 * together, one {@link SassMachine} per block (rank {@code r} = the block's linear index in its cluster, x fastest,
 * as {@code %cluster_ctarank}), each a round of its warps in turn; clusters run one after the other.
 * <ul>
 *   <li>Distributed shared memory: a generic address in the shared window names the block by its top byte
 *       ({@code mapa} puts the rank there: {@code PRMT d, rank, 0x654, a}), so {@code LD/ST/ATOM.E} reach any block of
 *       the cluster ({@link #shared}); a rank outside the cluster is a memory fault.</li>
 *   <li>The cluster barrier: {@code UCGABAR_ARV} counts an arrival of each thread of the group; a thread at
 *       {@code UCGABAR_WAIT} after its {@code k}-th arrival waits until every thread of every block of the cluster
 *       has arrived {@code k} times or exited (a wait without an arrival since the last one waits for its own
 *       arrival: a deadlock).</li>
 * </ul>
 * A round in which no block makes progress is a deadlock, reported for the first unfinished block.
 */
final class ClusterRun {
    /** {@code Thread.barrier} of a thread waiting at the cluster barrier (the CTA barriers are 0..15). */
    static final int CLUSTER_BARRIER = 32;

    /** A block's place in its cluster: the run and its rank. */
    record Seat(ClusterRun run, int rank) {}

    private final SassMachine[] members;
    private final Dim3 shape;
    private final int[][] arrivals;
    private final int[][] waitFor;
    /** The arrival count at each thread's last wait. */
    private final int[][] waited;

    private ClusterRun(SassMachine[] members, Dim3 shape) {
        this.members = members;
        this.shape = shape;
        this.arrivals = new int[members.length][];
        this.waitFor = new int[members.length][];
        this.waited = new int[members.length][];
    }

    /**
     * Runs {@code launch} cluster by cluster of {@code shape} on {@code members} (one machine per rank); the first
     * member's coverage and traces receive the others'. A launch without clusters runs as clusters of one block
     * (shape 1x1x1), as every sm_90 block is in one: its cluster barrier is a barrier of the block's threads.
     */
    static LaunchResult run(String executor, Launch launch, Dim3 shape, SassMachine[] members) {
        int size = members.length;
        ClusterRun run = new ClusterRun(members, shape);
        for (int r = 0; r < size; r++) {
            members[r].seat = new Seat(run, r);
        }
        try {
            run.all(launch.grid());
        } catch (SassMachine.Stop s) {
            return LaunchResult.faulted(executor, s.fault, run.warpInstructions(), run.threadInstructions());
        } finally {
            run.merge();
        }
        return LaunchResult.completed(executor, run.warpInstructions(), run.threadInstructions());
    }

    private void all(Dim3 grid) {
        Dim3 clusters = new Dim3(grid.x() / shape.x(), grid.y() / shape.y(), grid.z() / shape.z());
        for (long c = 0; c < clusters.count(); c++) {
            Dim3Point q = clusters.point(c);
            for (int r = 0; r < members.length; r++) {
                int x = r % shape.x(), y = r / shape.x() % shape.y(), z = r / (shape.x() * shape.y());
                members[r].startCta(new Dim3Point(q.x() * shape.x() + x, q.y() * shape.y() + y, q.z() * shape.z() + z));
                int n = members[r].threads().length;
                arrivals[r] = new int[n];
                waitFor[r] = new int[n];
                waited[r] = new int[n];
            }
            while (true) {
                boolean progress = false, done = true;
                for (SassMachine m : members) {
                    if (!m.ctaFinished()) {
                        progress |= m.sweep();
                        done &= m.ctaFinished();
                    }
                }
                if (done) {
                    break;
                }
                progress |= release(); // an exit may complete the barrier
                if (!progress) {
                    for (SassMachine m : members) {
                        if (!m.ctaFinished()) {
                            m.deadlocked();
                        }
                    }
                }
            }
            for (SassMachine m : members) {
                m.finishCta();
            }
        }
    }

    /**
     * The shared memory of the block of rank {@code rank}, for an access at window offset {@code a}: a rank outside
     * the cluster, or a block that has exited (its shared memory is gone: the missing cluster barrier before a block
     * exits), is a memory fault.
     */
    Region shared(int rank, long a) {
        if (rank < 0 || rank >= members.length) {
            throw new MemoryAccessException(AddressSpace.SHARED, a, 1, "no block of rank " + rank + " in the cluster");
        }
        if (members[rank].ctaFinished()) {
            throw new MemoryAccessException(AddressSpace.SHARED, a, 1, "the block of rank " + rank
                    + " of the cluster has exited (distributed shared memory needs a cluster barrier before exit)");
        }
        return members[rank].sharedRegion();
    }

    /** The machine of the block of rank {@code rank}, for an access at window offset {@code a} (as {@link #shared}). */
    SassMachine member(int rank, long a) {
        shared(rank, a);
        return members[rank];
    }

    /** UCGABAR_ARV / UCGABAR_WAIT for the lanes {@code group} of the warp at {@code base}. */
    void barrier(SassMachine m, SassOp op, Thread[] threads, int base, int count, int group) {
        int r = m.seat.rank();
        boolean arrive = op.opcode().equals("UCGABAR_ARV");
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                Thread t = threads[base + l];
                if (arrive) {
                    arrivals[r][t.linear]++;
                    t.pc++;
                } else {
                    // the phase of its last arrival; a thread that has not arrived since its last wait waits for
                    // a phase it never arrives at (its own arrival is missing): a deadlock, as on the hardware
                    int a = arrivals[r][t.linear];
                    waitFor[r][t.linear] = a > waited[r][t.linear] ? a : a + 1;
                    waited[r][t.linear] = a;
                    t.barrier = CLUSTER_BARRIER;
                    t.waitOp = op;
                }
            }
        }
        release();
    }

    /** Releases the waiting threads whose phase every live thread of the cluster has reached; true if any. */
    private boolean release() {
        int least = Integer.MAX_VALUE;
        boolean waiting = false;
        for (int r = 0; r < members.length; r++) {
            Thread[] ts = members[r].threads();
            for (Thread t : ts) {
                if (!t.exited) {
                    least = Math.min(least, arrivals[r][t.linear]);
                    waiting |= t.barrier == CLUSTER_BARRIER;
                }
            }
        }
        if (!waiting) {
            return false;
        }
        boolean any = false;
        for (int r = 0; r < members.length; r++) {
            Thread[] ts = members[r].threads();
            Warp[] warps = members[r].warps();
            int[] tags = new int[warps.length]; // the released threads of one warp continue as one group
            for (Thread t : ts) {
                if (t.barrier == CLUSTER_BARRIER && waitFor[r][t.linear] <= least) {
                    Warp w = warps[t.linear / 32];
                    if (tags[t.linear / 32] == 0) {
                        tags[t.linear / 32] = w.nextTag++;
                    }
                    t.tag = tags[t.linear / 32];
                    t.barrier = -1;
                    t.waitOp = null;
                    t.pc++;
                    any = true;
                }
            }
        }
        return any;
    }

    private long warpInstructions() {
        long s = 0;
        for (SassMachine m : members) {
            s += m.counts()[0];
        }
        return s;
    }

    private long threadInstructions() {
        long s = 0;
        for (SassMachine m : members) {
            s += m.counts()[1];
        }
        return s;
    }

    /** The siblings' coverage and traces, added to the leader's. */
    private void merge() {
        boolean[] ran = members[0].ran();
        for (int r = 1; r < members.length; r++) {
            boolean[] other = members[r].ran();
            for (int pc = 0; pc < ran.length; pc++) {
                ran[pc] |= other[pc];
            }
            java.util.Map<SassMachine.Trace, int[]> into = members[0].traces();
            if (!into.isEmpty() || !members[r].traces().isEmpty()) {
                members[r].traces().forEach((k, v) -> into.computeIfAbsent(k, x -> new int[1])[0] += v[0]);
            }
        }
    }
}
