package org.jptxas.scheduler.list;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.jptxas.scheduler.dag.DagBuilder;
import org.jptxas.scheduler.dag.DepGraph;
import org.jptxas.scheduler.dag.DepKind;
import org.jptxas.scheduler.dag.Regions;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.latency.PipeRole;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * The one list-scheduling engine of ptxas, parameterised by {@link SchedMode}. Per region: build the DAG, seed the
 * ready list with nodes that have no predecessors, then repeatedly take the best ready node, issue it at the earliest
 * cycle its producers and its pipe allow, and release its successors. Stateless between calls; thread-safe.
 */
public final class ListScheduler {
    /** How close to the GPR budget (registers) ReduceReg starts preferring instructions that free registers. */
    static final int PRESSURE_MARGIN = 8;
    private static final boolean DEBUG = System.getenv("SCHED_DEBUG") != null;
    private final LatencyModel model;

    private final boolean registersCrossBarriers;

    public ListScheduler(LatencyModel model) {
        this(model, false);
    }

    /** @param registersCrossBarriers see {@link DagBuilder#DagBuilder(LatencyModel, boolean)} */
    public ListScheduler(LatencyModel model, boolean registersCrossBarriers) {
        this.model = model;
        this.registersCrossBarriers = registersCrossBarriers;
    }

    /** Schedules one basic block; regions longer than {@link SchedOptions#maxRegion()} are scheduled one by one. */
    public Schedule schedule(List<? extends SchedInstr> block, SchedOptions options) {
        int[] order = new int[block.size()];
        int pos = 0;
        int cycles = 0;
        int maxLive = 0;
        for (Regions.Range r : Regions.splitBlock(block.size(), options.maxRegion())) {
            List<? extends SchedInstr> region = block.subList(r.start(), r.end());
            Schedule s = scheduleRegion(new DagBuilder(model, registersCrossBarriers).build(region), options);
            for (int k : s.order()) {
                order[pos++] = r.start() + k;
            }
            cycles += s.cycles();
            maxLive = Math.max(maxLive, s.maxLive());
        }
        return new Schedule(order, cycles, maxLive);
    }

    /** Schedules one region whose DAG is already built. */
    public Schedule scheduleRegion(DepGraph g, SchedOptions options) {
        return new Run(g, options).run();
    }

    /** The mutable state of one scheduling run. */
    private final class Run {
        private final DepGraph g;
        private final SchedOptions opt;
        private final int n;
        private final int[] remainingPreds;
        private final int[] earliest;
        private final boolean[] scheduled;
        private final boolean[] barrierTarget;
        /**
         * Variable-latency reads with no register inputs (S2R, S2UR), constant loads aside (many, each holding its
         * registers for long): see {@link #priority}.
         */
        private final boolean[] specialRead;
        /** The ready special reads: their priority follows their pipe, so it is refreshed before each choice. */
        private final List<Integer> readySpecial = new ArrayList<>();
        private final int[] gprDefWidth;
        private final int[] remainingUses;
        private final int[][] gprUseDefs;
        private final int[] pipeFree;
        private final ReadyList ready;
        private final PriorityQueue<Integer> waiting;
        private final SpillModeState spill = new SpillModeState();
        private int cycle;
        private int live;
        private int maxLive;
        private int hotColdBudget;
        private boolean hotColdActive = true;
        private int horizon;
        private int readyTargets;
        /** Ready nodes still in {@link #waiting}: their earliest cycle has not come. */
        private int stalled;

        Run(DepGraph g, SchedOptions opt) {
            this.g = g;
            this.opt = opt;
            this.n = g.size();
            remainingPreds = new int[n];
            earliest = new int[n];
            scheduled = new boolean[n];
            barrierTarget = new boolean[n];
            specialRead = new boolean[n];
            gprDefWidth = new int[n];
            remainingUses = new int[n];
            gprUseDefs = new int[n][];
            pipeFree = new int[model.pipeCount()];
            ready = new ReadyList(n);
            waiting = new PriorityQueue<>((a, b) -> earliest[a] != earliest[b] ? Integer.compare(earliest[a], earliest[b])
                    : Integer.compare(a, b));
            hotColdBudget = opt.hotColdBudget();
            for (int i = 0; i < n; i++) {
                remainingPreds[i] = g.predCount(i);
                for (int e = g.predBegin(i); e < g.predEnd(i); e++) {
                    if (g.predKind(e) == DepKind.RAW && g.opClass(g.pred(e)).variable()) {
                        barrierTarget[i] = true;
                    }
                }
                SchedInstr in = g.instr(i);
                OpClass c = g.opClass(i);
                specialRead[i] = c.variable() && in.memKind() == MemKind.NONE && in.uses().isEmpty()
                        && !in.defs().isEmpty() && !model.isHot(c) && model.pipeRole(c.pipe()) != PipeRole.CONSTANT_LOAD;
                for (RegRange d : g.instr(i).defs()) {
                    if (d.file() == RegFile.R && !d.isZero()) {
                        gprDefWidth[i] += d.count();
                    }
                }
            }
            // Block-local GPR values: which producers each instruction consumes, and how many consumers remain.
            for (int i = 0; i < n; i++) {
                int[] defs = new int[g.predEnd(i) - g.predBegin(i)];
                int count = 0;
                for (int e = g.predBegin(i); e < g.predEnd(i); e++) {
                    int p = g.pred(e);
                    if (g.predKind(e) == DepKind.RAW && gprDefWidth[p] > 0 && !contains(defs, count, p)) {
                        defs[count++] = p;
                        remainingUses[p]++;
                    }
                }
                gprUseDefs[i] = count == defs.length ? defs : java.util.Arrays.copyOf(defs, count);
            }
        }

        private static boolean contains(int[] values, int count, int value) {
            for (int k = 0; k < count; k++) {
                if (values[k] == value) {
                    return true;
                }
            }
            return false;
        }

        Schedule run() {
            for (int i = 0; i < n; i++) {
                if (remainingPreds[i] == 0) {
                    release(i);
                }
            }
            int[] order = new int[n];
            int last = 0;
            for (int k = 0; k < n; k++) {
                promoteWaiting();
                if (stalled == ready.size() && stalled > 0) {
                    // Nothing can issue now: move to the cycle the first waiting node becomes ready, so the choice is
                    // made among nodes that issue then rather than by priority among nodes that all stall.
                    cycle = Math.max(cycle, earliest[waiting.peek()]);
                    promoteWaiting();
                }
                if (ready.isEmpty()) {
                    throw new IllegalStateException("cycle in dependency graph");
                }
                for (int r = 0; r < readySpecial.size(); r++) {
                    reprioritize(readySpecial.get(r));
                }
                int best = select();
                if (DEBUG) {
                    StringBuilder sb = new StringBuilder("cycle " + cycle + " pick " + best + ":");
                    for (int nd : ready.nodes()) {
                        sb.append(" [").append(nd).append(" p=").append(Integer.toBinaryString(ready.priority[nd])).append(" e=")
                                .append(earliest[nd]).append(" h=").append(ready.height[nd]).append(" pipe=").append(pipeFree[g.opClass(nd).pipe()]).append("]");
                    }
                    System.out.println(sb);
                }
                ready.remove(best);
                readySpecial.remove(Integer.valueOf(best));
                if (barrierTarget[best]) {
                    readyTargets--;
                }
                if (!stallFreeNow(best) && waiting.remove(best)) {
                    stalled--;
                }
                int issue = Math.max(cycle, Math.max(earliest[best], pipeFree[g.opClass(best).pipe()]));
                order[k] = best;
                commit(best, issue);
                last = issue;
            }
            return new Schedule(order, n == 0 ? 0 : last + 1, maxLive);
        }

        private int select() {
            // The seed's pre-scan keeps at most 32 barrier targets; scanning the best 32 nodes keeps this O(1).
            int targets = readyTargets;
            int stallFreeTargets = 0;
            int minTierCount = 0;
            int minHeight = Integer.MAX_VALUE;
            int scanned = 0;
            for (int rank = 0; rank < ready.size(); rank++) {
                int node = ready.node(rank);
                if (++scanned > 32) {
                    break;
                }
                if (barrierTarget[node]) {
                    if (earliest[node] <= cycle) {
                        stallFreeTargets++;
                    }
                    int h = ready.height[node];
                    if (h < minHeight) {
                        minHeight = h;
                        minTierCount = 1;
                    } else if (h == minHeight) {
                        minTierCount++;
                    }
                }
            }
            spill.rescanIfNeeded(targets, minTierCount);
            boolean overBudget = live > opt.effectiveBudget();
            boolean pressureFirst = overBudget && opt.mode() != SchedMode.ILP;
            int best = ready.best(pressureFirst);
            boolean winnerStallFree = earliest[best] <= cycle;
            boolean bestOver = live + ready.gprDelta[best] > opt.effectiveBudget();
            if (spill.afterSelection(barrierTarget[best], targets, stallFreeTargets, bestOver, winnerStallFree)) {
                rekeyAll();
            }
            return best;
        }

        /** A node whose predecessors are all scheduled enters the ready list (stall-free once its cycle comes). */
        private void release(int i) {
            ready.height[i] = g.height(i);
            ready.earliest[i] = earliest[i];
            ready.gprDelta[i] = gprDelta(i);
            ready.priority[i] = priority(i);
            ready.add(i);
            if (specialRead[i]) {
                readySpecial.add(i);
            }
            if (barrierTarget[i]) {
                readyTargets++;
            }
            if (earliest[i] > cycle) {
                waiting.add(i);
                stalled++;
            }
            horizon = Math.max(horizon, earliest[i] + g.height(i));
        }

        /** Whether {@code i} left the waiting queue already (its earliest cycle has come). */
        private boolean stallFreeNow(int i) {
            return earliest[i] <= cycle;
        }

        private void promoteWaiting() {
            while (!waiting.isEmpty() && scheduled[waiting.peek()]) {
                waiting.poll();
            }
            if (ready.isEmpty() && !waiting.isEmpty()) {
                cycle = Math.max(cycle, earliest[waiting.peek()]);
            }
            while (!waiting.isEmpty() && earliest[waiting.peek()] <= cycle) {
                int i = waiting.poll();
                if (!scheduled[i]) {
                    stalled--;
                    reprioritize(i);
                }
            }
        }

        /** Recomputes a node's priority, moving it in the ready list when it is there. */
        private void reprioritize(int i) {
            boolean present = ready.detach(i);
            ready.priority[i] = priority(i);
            ready.attach(i, present);
        }

        private void rekeyAll() {
            for (int i : ready.nodes()) {
                reprioritize(i);
            }
        }

        private int priority(int i) {
            OpClass c = g.opClass(i);
            boolean stallFree = earliest[i] <= cycle;
            // Critical: can issue now and lies on the longest remaining path (a stalled node is never critical).
            boolean critical = spill.active() || stallFree && earliest[i] + g.height(i) >= horizon;
            boolean hot = switch (opt.mode()) {
                case DYN_BATCH -> model.pipeRole(c.pipe()) == PipeRole.MATRIX;
                default -> hotColdActive && model.isHot(c);
            };
            if (opt.mode() == SchedMode.REDUCE_REG && stallFree && specialRead[i] && pipeFree[c.pipe()] <= cycle) {
                // ptxas issues its special-register reads early, each as soon as its pipe takes it: their latency
                // varies and nothing delays them, so starting them ahead of the arithmetic hides it behind what
                // follows; back to back on a busy pipe they would only stall
                hot = true;
            }
            // Pressure relief outranks latency only near the budget (the seed's overflow check); below it ReduceReg
            // schedules for latency like ILP, so loads still start early.
            boolean pressure = opt.mode() == SchedMode.REDUCE_REG && ready.gprDelta[i] < 0
                    && live + PRESSURE_MARGIN > opt.effectiveBudget();
            return Priority.pack(false, false, hot, pressure, true, stallFree, critical, barrierTarget[i]);
        }

        /** GPRs this instruction makes live minus the GPRs whose last block-local use it is. */
        private int gprDelta(int i) {
            int d = gprDefWidth[i];
            for (int p : gprUseDefs[i]) {
                if (remainingUses[p] == 1) {
                    d -= gprDefWidth[p];
                }
            }
            return d;
        }

        private void commit(int i, int issue) {
            scheduled[i] = true;
            OpClass c = g.opClass(i);
            pipeFree[c.pipe()] = issue + model.pipeBusy(c);
            cycle = issue + 1;
            live += gprDefWidth[i];
            maxLive = Math.max(maxLive, live);
            for (int p : gprUseDefs[i]) {
                if (--remainingUses[p] == 0) {
                    live -= gprDefWidth[p];
                } else if (remainingUses[p] == 1) {
                    // The last remaining consumer of p now frees it: its pressure delta changes.
                    for (int e = g.succBegin(p); e < g.succEnd(p); e++) {
                        int s = g.succ(e);
                        if (!scheduled[s] && g.succKind(e) == DepKind.RAW) {
                            boolean present = ready.detach(s);
                            ready.gprDelta[s] = gprDelta(s);
                            ready.attach(s, present);
                        }
                    }
                }
            }
            if (hotColdActive && !model.isHot(c) && c.variable()) {
                if (--hotColdBudget <= 0) {
                    hotColdActive = false;
                }
            }
            for (int e = g.succBegin(i); e < g.succEnd(i); e++) {
                int s = g.succ(e);
                earliest[s] = Math.max(earliest[s], issue + g.succLatency(e));
                if (--remainingPreds[s] == 0) {
                    release(s);
                }
            }
        }
    }
}
