package org.jptxas.scheduler.dag;

import java.util.Arrays;
import java.util.List;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * Builds the {@link DepGraph} of one region in a single forward pass. Like ptxas's BuildDependencies it never
 * compares instruction pairs: it keeps, per register, the last writer and the readers since, and per state space
 * the last writer and the readers since, so the cost is linear in the number of operands.
 */
public final class DagBuilder {
    private static final MemSpace[] SPACES = MemSpace.values();
    /** The latency classes of the ALU, FMA and half-precision pipes ({@link #isRegisterOnly}). */
    private static final java.util.Set<String> REGISTER_ARITHMETIC = java.util.Set.of("alu", "alu64", "fma",
            "imadWide", "fp16");

    private final LatencyModel model;
    private final boolean registersCrossBarriers;
    private final int guardGroup;
    private final int branchGroup;

    private int[] from = new int[64];
    private int[] to = new int[64];
    private int[] lat = new int[64];
    private byte[] kind = new byte[64];
    private int edges;

    /** A builder after which nothing crosses a barrier. */
    public DagBuilder(LatencyModel model) {
        this(model, false);
    }

    /**
     * @param registersCrossBarriers register-only arithmetic may cross a thread-block barrier ({@link
     *     #isRegisterOnly}); after register allocation this costs nothing, before it would lengthen live ranges
     */
    public DagBuilder(LatencyModel model, boolean registersCrossBarriers) {
        this.model = model;
        this.registersCrossBarriers = registersCrossBarriers;
        this.guardGroup = model.readerGroup(LatencyModel.GUARD);
        this.branchGroup = model.readerGroup(LatencyModel.BRANCH);
    }

    /** Builds the DAG of {@code instrs}, which must all be in one region (a block or a piece of one). */
    public DepGraph build(List<? extends SchedInstr> instrs) {
        edges = 0;
        int n = instrs.size();
        OpClass[] classes = new OpClass[n];
        RegFile[] files = RegFile.values();
        int[][] lastWriter = new int[files.length][];
        IntList[][] readers = new IntList[files.length][];
        for (RegFile f : files) {
            lastWriter[f.ordinal()] = new int[f.size()];
            Arrays.fill(lastWriter[f.ordinal()], -1);
            readers[f.ordinal()] = new IntList[f.size()];
        }
        int[] memWriter = new int[SPACES.length];
        Arrays.fill(memWriter, -1);
        int[] readerFence = new int[SPACES.length];
        Arrays.fill(readerFence, -1);
        IntList[] memReaders = new IntList[SPACES.length];
        for (int s = 0; s < SPACES.length; s++) {
            memReaders[s] = new IntList();
        }
        int lastOrderPoint = -1;
        int lastHardOrderPoint = -1;
        IntList sinceOrderPoint = new IntList();
        IntList registerOnlySinceHard = new IntList();
        IntList none = new IntList();

        for (int i = 0; i < n; i++) {
            SchedInstr in = instrs.get(i);
            OpClass c = model.opClass(in.latencyClass());
            classes[i] = c;
            boolean orderPoint = isOrderPoint(in);
            boolean barrier = registersCrossBarriers && orderPoint && isThreadBarrier(in);
            boolean registerOnly = registersCrossBarriers && isRegisterOnly(in, c);
            int group = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT) ? branchGroup : c.readerGroup();

            if (in.guard() != null) {
                read(in.guard(), i, in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT) ? branchGroup : guardGroup,
                        classes, lastWriter, readers);
            }
            for (RegRange r : in.uses()) {
                read(r, i, group, classes, lastWriter, readers);
            }
            for (RegRange r : in.defs()) {
                write(r, i, c, classes, lastWriter, readers);
            }
            memory(in, i, memWriter, readerFence, memReaders);

            if (orderPoint) {
                // In program order (both lists ascend), so code without barriers gets the edges it always had.
                IntList crossing = barrier ? none : registerOnlySinceHard;
                int a = 0, b = 0;
                while (a < sinceOrderPoint.size || b < crossing.size) {
                    boolean fromA = b >= crossing.size
                            || a < sinceOrderPoint.size && sinceOrderPoint.get(a) < crossing.get(b);
                    edge(fromA ? sinceOrderPoint.get(a++) : crossing.get(b++), i, 1, DepKind.ORDER);
                }
                if (lastOrderPoint >= 0) {
                    edge(lastOrderPoint, i, 1, DepKind.ORDER);
                }
                sinceOrderPoint.clear();
                lastOrderPoint = i;
                if (!barrier) {
                    registerOnlySinceHard.clear();
                    lastHardOrderPoint = i;
                }
            } else if (registerOnly) {
                // Registers are private to a thread: a barrier orders nothing such an instruction touches, so it
                // may cross one (ptxas computes the next iteration's compare above a loop's BAR.SYNC).
                if (lastHardOrderPoint >= 0) {
                    edge(lastHardOrderPoint, i, 1, DepKind.ORDER);
                }
                registerOnlySinceHard.add(i);
            } else {
                if (lastOrderPoint >= 0) {
                    edge(lastOrderPoint, i, 1, DepKind.ORDER);
                }
                sinceOrderPoint.add(i);
            }
        }
        return new DepGraph(instrs, classes, Arrays.copyOf(from, edges), Arrays.copyOf(to, edges),
                Arrays.copyOf(lat, edges), Arrays.copyOf(kind, edges), edges);
    }

    /** Instructions nothing may cross: calls, barriers, branches, exits, convergence control, padding. */
    private static boolean isOrderPoint(SchedInstr in) {
        for (SchedFlag f : in.flags()) {
            if (f != SchedFlag.FENCE) {
                return true;
            }
        }
        return false;
    }

    /**
     * A thread-block barrier (BAR, the cluster barrier) and nothing else: it orders memory and side effects
     * ({@link #memory} makes it a fence), other barriers and control (order points), but not register-only
     * arithmetic. WARPSYNC also carries {@link SchedFlag#CONTROL}: warp convergence stays a full ordering point.
     */
    private static boolean isThreadBarrier(SchedInstr in) {
        return in.flags().size() == 1 && in.has(SchedFlag.BARRIER);
    }

    /**
     * Fixed-latency integer, float and half arithmetic with no memory access and no flag: it reads and writes
     * registers only, so only its register dependences order it. Variable-latency classes (barrier results, special
     * registers, shuffles) and matrix steps keep their place at barriers.
     */
    private static boolean isRegisterOnly(SchedInstr in, OpClass c) {
        return in.flags().isEmpty() && in.memKind() == MemKind.NONE && !c.variable()
                && REGISTER_ARITHMETIC.contains(c.name());
    }

    private void read(RegRange r, int i, int group, OpClass[] classes, int[][] lastWriter, IntList[][] readers) {
        if (r.isZero()) {
            return;
        }
        int f = r.file().ordinal();
        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
            int w = lastWriter[f][reg];
            if (w >= 0 && w != i) {
                edge(w, i, classes[w].variable() ? model.expectedLatency(classes[w])
                        : model.rawOrDefault(classes[w], r.file(), group), DepKind.RAW);
            }
            IntList rl = readers[f][reg];
            if (rl == null) {
                rl = readers[f][reg] = new IntList();
            }
            if (rl.last() != i) {
                rl.add(i);
            }
        }
    }

    private void write(RegRange r, int i, OpClass c, OpClass[] classes, int[][] lastWriter, IntList[][] readers) {
        if (r.isZero()) {
            return;
        }
        int f = r.file().ordinal();
        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
            IntList rl = readers[f][reg];
            if (rl != null) {
                for (int k = 0; k < rl.size; k++) {
                    int rd = rl.get(k);
                    if (rd != i) {
                        edge(rd, i, model.war(classes[rd], c), DepKind.WAR);
                    }
                }
                rl.clear();
            }
            int w = lastWriter[f][reg];
            if (w >= 0 && w != i) {
                edge(w, i, model.waw(classes[w], c), DepKind.WAW);
            }
            lastWriter[f][reg] = i;
        }
    }

    /**
     * Memory ordering by state space. {@code memWriter[s]} is the last store to space s; {@code readerFence[s]} the
     * last store that was ordered after all earlier readers of s (those readers then need no further edges).
     * Loads follow stores to aliasing spaces; stores follow loads and stores to aliasing spaces.
     */
    private void memory(SchedInstr in, int i, int[] memWriter, int[] readerFence, IntList[] memReaders) {
        MemKind k = in.memKind();
        boolean fence = in.has(SchedFlag.FENCE) || in.has(SchedFlag.BARRIER) || in.has(SchedFlag.CALL);
        if (k == MemKind.NONE && !fence) {
            return;
        }
        MemSpace space = in.memSpace();
        boolean writes = fence || k.writes();
        for (int s = 0; s < SPACES.length; s++) {
            if (!fence && !space.mayAlias(SPACES[s])) {
                continue;
            }
            if (memWriter[s] >= 0) {
                edge(memWriter[s], i, 1, DepKind.MEMORY);
            }
            if (writes) {
                if (readerFence[s] >= 0) {
                    edge(readerFence[s], i, 1, DepKind.MEMORY);
                }
                for (int r = 0; r < memReaders[s].size; r++) {
                    edge(memReaders[s].get(r), i, 1, DepKind.MEMORY);
                }
                memReaders[s].clear();
                readerFence[s] = i;
            }
        }
        if (fence) {
            java.util.Arrays.fill(memWriter, i);
        } else if (k.writes()) {
            memWriter[space.ordinal()] = i;
        }
        if (k.reads() && !fence) {
            memReaders[space.ordinal()].add(i);
        }
    }

    private void edge(int f, int t, int latency, DepKind k) {
        if (edges > 0 && from[edges - 1] == f && to[edges - 1] == t && kind[edges - 1] == k.ordinal()) {
            lat[edges - 1] = Math.max(lat[edges - 1], latency); // a value read through several operands: one edge
            return;
        }
        if (edges == from.length) {
            int cap = edges * 2;
            from = Arrays.copyOf(from, cap);
            to = Arrays.copyOf(to, cap);
            lat = Arrays.copyOf(lat, cap);
            kind = Arrays.copyOf(kind, cap);
        }
        from[edges] = f;
        to[edges] = t;
        lat[edges] = latency;
        kind[edges] = (byte) k.ordinal();
        edges++;
    }
}
