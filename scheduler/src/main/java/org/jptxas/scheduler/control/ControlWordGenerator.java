package org.jptxas.scheduler.control;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.latency.PipeRole;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * Computes control words for an instruction sequence in a fixed order, by simulating issue cycles the way the
 * latency model describes them:
 * <ul>
 *   <li>fixed-latency producers are covered by stall counts placed on the instruction just before the consumer
 *       (the latest point, as ptxas does), never below the class's minimum stall or the pipe's issue interval;</li>
 *   <li>variable-latency producers get a write scoreboard; producers whose first consumer is the same instruction
 *       share one; the consumer waits on it; when all six are busy the oldest is recycled;</li>
 *   <li>instructions that read sources after issue (stores, atomics, shuffles) get a read scoreboard when a later
 *       instruction overwrites one of those sources, and that writer waits on it;</li>
 *   <li>operand-reuse flags are set where the next instruction reads the same GPR in the same slot.</li>
 * </ul>
 * At a branch target the states of every predecessor merge (conservatively); code with loops takes more passes,
 * until its words settle (back edges bring the state of the previous pass). Stateless;
 * thread-safe.
 */
public final class ControlWordGenerator {
    /** The scoreboard LDGDEPBAR sets and {@code DEPBAR.LE SB0, n} counts (fixed by the hardware). */
    static final int COPY_GROUP_SB = 0;
    /** The scoreboards in order, for a class that prefers none. */
    private static final int[] ANY_SCOREBOARD = {0, 1, 2, 3, 4, 5};
    /** Passes over code with back edges until the words settle (they do within a few; the repair covers the rest). */
    private static final int MAX_LOOP_PASSES = 6;
    private final LatencyModel model;

    public ControlWordGenerator(LatencyModel model) {
        this.model = model;
    }

    /** Control words for {@code code} in its given order. */
    public List<ControlWord> generate(List<? extends SchedInstr> code) {
        return generate(code, ControlFlow.linear(code.size()));
    }

    /**
     * Control words of debug code (ptxas for a {@code .target ..., debug} module): fully serialized, every instruction
     * stalls the maximum and waits for scoreboards 0 and 1, every variable-latency result sets scoreboard 0; the
     * padding after the end-of-function loop stays at 0.
     */
    public List<ControlWord> generateDebug(List<? extends SchedInstr> code) {
        int n = code.size();
        int tail = paddingStart(code);
        List<ControlWord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SchedInstr in = code.get(i);
            if (i >= tail) {
                out.add(new ControlWord(0, false, ControlWord.NONE, ControlWord.NONE, 0, 0));
                continue;
            }
            OpClass c = model.opClass(in.latencyClass());
            boolean writes = c.variable() && in.defs().stream().anyMatch(r -> !r.isZero() && r.file() != RegFile.B);
            out.add(new ControlWord(model.maxStall(), false, writes ? 0 : ControlWord.NONE, ControlWord.NONE, 0b11, 0));
        }
        return out;
    }

    /** Control words for {@code code} with the given control flow (state merges at branch targets). */
    public List<ControlWord> generate(List<? extends SchedInstr> code, ControlFlow flow) {
        return new Run(code, flow).run();
    }

    private final class Run implements IssueState.ExitClock {
        private final List<? extends SchedInstr> code;
        private final ControlFlow flow;
        private final int n;
        private final OpClass[] cls;
        private final int[] firstConsumer;
        private final int[] firstOverwrite;
        private final boolean[] jumpSource;
        /** Where every scoreboard is drained: at calls (a callee cannot know our scoreboards) and before a branch whose
         * targets the flow does not know (the joins it reaches start from a fresh state). */
        private final boolean[] drainAtCall;
        private final int guardGroup = model.readerGroup(LatencyModel.GUARD);
        private final int branchGroup = model.readerGroup(LatencyModel.BRANCH);
        private final long[] time;
        /** Earliest issue of the instruction after a class that {@linkplain OpClass#drainsOnExit() drains on exit}. */
        private final long[] exitFloor;
        private final boolean[] inOrderPipe = new boolean[model.pipeCount()];
        /** Padding: no operands and no pipe (NOP, never-executed instructions). */
        private final boolean[] padding;
        /** The code closes groups of asynchronous copies (LDGDEPBAR): SB0 is theirs alone. */
        private final boolean copyGroups;
        /** Per class id, the scoreboards it may take ({@link #scoreboardOrder}), made on first use. */
        private final int[][] orderByClass;

        Run(List<? extends SchedInstr> code, ControlFlow flow) {
            this.code = code;
            this.copyGroups = code.stream().anyMatch(x -> x.has(SchedFlag.COPY_GROUP));
            this.flow = flow;
            n = code.size();
            if (flow.size() != n) {
                throw new IllegalArgumentException("control flow of " + flow.size() + " instructions for " + n);
            }
            cls = new OpClass[n];
            int classes = 0;
            for (int i = 0; i < n; i++) {
                cls[i] = model.opClass(code.get(i).latencyClass());
                classes = Math.max(classes, cls[i].id() + 1);
            }
            orderByClass = new int[classes][];
            time = new long[n];
            exitFloor = new long[n];
            for (int p = 0; p < inOrderPipe.length; p++) {
                inOrderPipe[p] = model.inOrder(p);
            }
            padding = new boolean[n];
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                padding[i] = in.defs().isEmpty() && in.uses().isEmpty() && in.guard() == null
                        && model.pipeRole(cls[i].pipe()) == PipeRole.NONE && !in.has(SchedFlag.CALL);
            }
            firstConsumer = new int[n];
            firstOverwrite = new int[n];
            jumpSource = new boolean[n];
            for (int i = 0; i < n; i++) {
                for (int p : flow.jumpPredecessors(i)) {
                    jumpSource[p] = true;
                }
            }
            drainAtCall = new boolean[n];
            int leader = 0;
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                if (i > 0 && (flow.isJoin(i) || isControl(code.get(i - 1)))) {
                    leader = i;
                }
                // A branch whose targets the flow does not know (BRX through a jump table) reaches joins that start
                // from a fresh state, so nothing may be pending when it issues.
                if (in.has(SchedFlag.CALL) || in.has(SchedFlag.BRANCH) && !jumpSource[i]) {
                    drainAtCall[i] = true;
                }
            }
            lookahead();
        }

        private int[] filled(int size) {
            int[] a = new int[size];
            Arrays.fill(a, -1);
            return a;
        }

        /** For each variable producer, its first consumer; for each late reader, the first overwrite of a source. */
        private void lookahead() {
            Arrays.fill(firstConsumer, -1);
            Arrays.fill(firstOverwrite, -1);
            int[][] lastW = new int[RegFile.values().length][];
            int[][] lastLateReader = new int[RegFile.values().length][];
            for (RegFile f : RegFile.values()) {
                lastW[f.ordinal()] = filled(f.size());
                lastLateReader[f.ordinal()] = filled(f.size());
            }
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                List<RegRange> uses = in.uses();
                for (int u = 0; u <= uses.size(); u++) {
                    RegRange r = u < uses.size() ? uses.get(u) : in.guard();
                    if (r == null || r.isZero()) {
                        continue;
                    }
                    int f = r.file().ordinal();
                    for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
                        int w = lastW[f][reg];
                        if (w >= 0 && cls[w].variable() && firstConsumer[w] < 0) {
                            firstConsumer[w] = i;
                        }
                    }
                }
                List<RegRange> defs = in.defs();
                for (int d = 0; d < defs.size(); d++) {
                    RegRange r = defs.get(d);
                    if (r.isZero()) {
                        continue;
                    }
                    int f = r.file().ordinal();
                    for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
                        int w = lastW[f][reg];
                        if (w >= 0 && w != i && cls[w].variable() && firstConsumer[w] < 0) {
                            firstConsumer[w] = i;
                        }
                        int lr = lastLateReader[f][reg];
                        if (lr >= 0 && lr != i && firstOverwrite[lr] < 0) {
                            firstOverwrite[lr] = i;
                        }
                        lastW[f][reg] = i;
                        lastLateReader[f][reg] = -1;
                    }
                }
                if (cls[i].readsLate()) {
                    // Only GPR sources are read late; a source the instruction also writes is covered by its
                    // write scoreboard, which any overwrite must wait for anyway.
                    for (int u = 0; u < uses.size(); u++) {
                        RegRange r = uses.get(u);
                        if (r.file() != RegFile.R || r.isZero()) {
                            continue;
                        }
                        int f = r.file().ordinal();
                        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
                            if (!writesReg(in, f, reg)) {
                                lastLateReader[f][reg] = i;
                            }
                        }
                    }
                }
            }
        }

        @Override
        public long exitTime(int j) {
            return Math.max(time[j] + Math.max(1, cls[j].minStall()), exitFloor[j]);
        }

        List<ControlWord> run() {
            boolean backEdges = false;
            for (int i = 0; i < n && !backEdges; i++) {
                for (int p : flow.jumpPredecessors(i)) {
                    backEdges |= p >= i;
                }
            }
            IssueState[] exits = new IssueState[n];
            List<ControlWord> out = pass(exits);
            // A back edge brings the state its source left in the previous pass; nested loops and scoreboards
            // chosen anew each pass need more than one more pass before the words stop changing.
            for (int pass = 1; backEdges && pass < MAX_LOOP_PASSES; pass++) {
                List<ControlWord> next = pass(exits);
                boolean settled = next.equals(out);
                out = next;
                if (settled) {
                    break;
                }
            }
            return out;
        }

        private List<ControlWord> pass(IssueState[] exits) {
            int[] stall = new int[n];
            boolean[] latencyBound = new boolean[n];
            int[] wait = new int[n];
            int[] wr = new int[n];
            int[] rd = new int[n];
            Arrays.fill(wr, ControlWord.NONE);
            Arrays.fill(rd, ControlWord.NONE);
            IssueState st = new IssueState(model.pipeCount());
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                OpClass c = cls[i];
                long entry = i > 0 ? Math.max(exitTime(i - 1), time[i - 1] + c.issueGap()) : 0;
                if (flow.isJoin(i)) {
                    st = IssueState.atJoin(i, st, flow, exits, entry, this, model);
                }
                long minIssue = Math.max(entry, st.pipeFree[c.pipe()]);
                for (int p : c.alsoPipes()) {
                    minIssue = Math.max(minIssue, st.pipeFree[p]);
                }
                long depIssue = 0;
                int waitMask = 0;
                if (drainAtCall[i]) {
                    for (int k = 0; k < model.scoreboards(); k++) {
                        if (st.sbCount[k] > 0) {
                            waitMask |= 1 << k;
                        }
                    }
                }
                boolean branch = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT);
                int group = branch ? branchGroup : c.readerGroup();
                List<RegRange> uses = in.uses();
                for (int u = 0; u < uses.size(); u++) {
                    RegRange r = uses.get(u);
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        int sb = st.writeSb[f][reg] & 0x3f;
                        if (sb != 0) {
                            waitMask |= sb;
                            int w = st.writer[f][reg];
                            if (w >= 0 && st.writeTime[f][reg] != IssueState.NEVER) {
                                minIssue = Math.max(minIssue, st.writeTime[f][reg] + model.rawOrDefault(cls[w], r.file(), group));
                            }
                        } else if (st.writerClass[f][reg] >= 0) {
                            // Hopper's wide split: the low half of a 64-bit result is readable early, the high half
                            // of a 64-bit source is read late.
                            OpClass wc = model.classById(st.writerClass[f][reg]);
                            int need = st.wideLow[f][reg] ? model.rawLowHalf(wc, group) : model.rawOrDefault(wc, r.file(), group);
                            int late = r.file() == RegFile.R && r.count() == 2 && reg == r.first() + 1 ? model.highHalfReadLate(c) : 0;
                            depIssue = Math.max(depIssue, st.writeTime[f][reg] + need - late);
                        }
                    }
                }
                RegRange g = in.guard();
                if (g != null && !g.isZero()) {
                    int f = g.file().ordinal();
                    int reg = g.first();
                    int sb = st.writeSb[f][reg] & 0x3f;
                    if (sb != 0) {
                        waitMask |= sb;
                    } else if (st.writerClass[f][reg] >= 0) {
                        depIssue = Math.max(depIssue, st.writeTime[f][reg] + model.rawOrDefault(
                                model.classById(st.writerClass[f][reg]), g.file(), branch ? branchGroup : guardGroup));
                    }
                }
                List<RegRange> defs = in.defs();
                for (int d = 0; d < defs.size(); d++) {
                    RegRange r = defs.get(d);
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        waitMask |= st.writeSb[f][reg] & 0x3f;
                        waitMask |= st.readSb[f][reg] & 0x3f;
                        if (c.variable() && st.writerClass[f][reg] >= 0 && st.writeTime[f][reg] != IssueState.NEVER) {
                            depIssue = Math.max(depIssue, st.writeTime[f][reg]
                                    + model.waw(model.classById(st.writerClass[f][reg]), c));
                        }
                    }
                }
                if (c.drainsWrites()) {
                    depIssue = Math.max(depIssue, drainTime(st));
                }
                for (int k = 0; k < model.scoreboards(); k++) {
                    if ((waitMask >> k & 1) != 0 && st.sbCount[k] > 0) {
                        minIssue = Math.max(minIssue, st.sbSet[k] + model.scoreboardSetup());
                    }
                }
                long issue = Math.max(minIssue, depIssue);
                if (i > 0 && !padding[i] && padding[i - 1]) {
                    issue = spreadOverPadding(i, issue, stall);
                }
                if (i > 0) {
                    long s = Math.min(model.maxStall(), issue - time[i - 1]);
                    stall[i - 1] = (int) s;
                    latencyBound[i - 1] = depIssue > minIssue;
                    issue = time[i - 1] + s;
                }
                time[i] = issue;
                exitFloor[i] = c.drainsOnExit() ? drainTime(st) : 0;
                wait[i] = waitMask;
                st.clearWaited(waitMask);
                st.pipeFree[c.pipe()] = issue + model.pipeBusy(c);
                for (int p : c.alsoPipes()) {
                    st.pipeFree[p] = Math.max(st.pipeFree[p], issue + Math.max(model.issueInterval(p), c.issueCycles()));
                }
                int wsb = -1;
                if (in.has(SchedFlag.COPY_GROUP)) {
                    wsb = take(st, COPY_GROUP_SB, -1, issue, i);
                    st.sbPipe[wsb] = c.pipe();
                    wr[i] = wsb;
                } else if (c.variable() && hasRealDef(in)) {
                    wsb = allocate(st, c, firstConsumer[i], issue, i);
                    st.sbPipe[wsb] = c.pipe();
                    wr[i] = wsb;
                }
                for (int d = 0; d < defs.size(); d++) {
                    RegRange r = defs.get(d);
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        st.writer[f][reg] = i;
                        st.writerClass[f][reg] = c.variable() ? -1 : c.id();
                        st.writeTime[f][reg] = issue;
                        st.setWriteSb(f, reg, wsb >= 0 ? 1 << wsb : 0);
                        st.wideLow[f][reg] = r.file() == RegFile.R && r.count() == 2 && reg == r.first() && !c.variable();
                        st.readSb[f][reg] = 0;
                    }
                }
                if (c.readsLate() && firstOverwrite[i] >= 0) {
                    int rsb = allocate(st, c, -2 - firstOverwrite[i], issue, i);
                    rd[i] = rsb;
                    for (int u = 0; u < uses.size(); u++) {
                        RegRange r = uses.get(u);
                        if (r.file() != RegFile.R) {
                            continue;
                        }
                        for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                            st.addReadSb(r.file().ordinal(), reg, 1 << rsb);
                            st.reader[r.file().ordinal()][reg] = i;
                        }
                    }
                }
                st.drain(in.scoreboardDrain(), inOrderPipe); // DEPBAR holds the next issue until they drain
                if (jumpSource[i]) {
                    exits[i] = IssueState.exitOf(st, i, flow);
                }
            }
            if (n > 0) {
                stall[n - 1] = Math.max(1, cls[n - 1].minStall());
            }
            int tail = paddingStart(code);
            List<ControlWord> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                if (i >= tail) {
                    stall[i] = 0; // the end-of-function self-branch and the NOPs after it never wait
                }
                boolean yield = stall[i] > 0 && stall[i] <= cls[i].yieldMaxStall()
                        && !(stall[i] == 2 && latencyBound[i] && !cls[i].variable());
                int reuse = yield && i + 1 < n && flow.fallsInto(i + 1) && !flow.isJoin(i + 1) ? reuse(in, code.get(i + 1)) : 0;
                out.add(new ControlWord(stall[i], yield, wr[i], rd[i], wait[i], reuse));
            }
            return out;
        }

        /**
         * Instruction {@code i} follows padding (NOPs, never-executed instructions) that ptxas placed because one stall
         * count could not cover the wait: like ptxas, front-load the wait on the last real instruction and the padding,
         * at most {@link LatencyModel#paddingStall()} cycles each (the maximum stall when even that cannot cover it).
         * Padding has no operands, so its issue cycles can move freely. Returns {@code i}'s issue cycle.
         */
        private long spreadOverPadding(int i, long issue, int[] stall) {
            int a = i - 1;
            while (a >= 0 && padding[a]) {
                a--;
            }
            if (a < 0) {
                return issue;
            }
            for (int m = a + 1; m <= i; m++) {
                if (flow.isJoin(m)) {
                    return issue;
                }
            }
            int k = i - a;
            long gap = Math.min(Math.max(issue - time[a], k), (long) model.maxStall() * k);
            int cap = gap > (long) model.paddingStall() * k ? model.maxStall() : model.paddingStall();
            for (int m = a; m < i - 1; m++) {
                int s = (int) Math.min(cap, gap - (i - 1 - m));
                stall[m] = s;
                time[m + 1] = time[m] + s;
                gap -= s;
            }
            return time[i - 1] + gap;
        }

        /** The first cycle at which every outstanding fixed-latency write is complete for a draining instruction. */
        private long drainTime(IssueState st) {
            long t = 0;
            for (RegFile file : RegFile.values()) {
                int f = file.ordinal();
                for (int reg = st.nextTouched(f, 0); reg >= 0; reg = st.nextTouched(f, reg + 1)) {
                    if (st.writerClass[f][reg] >= 0 && st.writeTime[f][reg] != IssueState.NEVER) {
                        int d = model.drain(model.classById(st.writerClass[f][reg]), file);
                        if (d >= 0) {
                            t = Math.max(t, st.writeTime[f][reg] + d);
                        }
                    }
                }
            }
            return t;
        }

        private boolean isControl(SchedInstr in) {
            return in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT) || in.has(SchedFlag.CALL);
        }

        private boolean writesReg(SchedInstr in, int file, int reg) {
            List<RegRange> defs = in.defs();
            for (int k = 0; k < defs.size(); k++) {
                RegRange d = defs.get(k);
                if (d.file().ordinal() == file && reg >= d.first() && reg < d.first() + d.count()) {
                    return true;
                }
            }
            return false;
        }

        private boolean hasRealDef(SchedInstr in) {
            List<RegRange> defs = in.defs();
            for (int k = 0; k < defs.size(); k++) {
                RegRange r = defs.get(k);
                if (!r.isZero() && r.file() != RegFile.B) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Picks a scoreboard: one already pending for the same first consumer ({@code group}), else the first free one
         * in the class's preferred order, else the one set longest ago (recycled: its consumers then wait for both).
         */
        private int allocate(IssueState st, OpClass c, int group, long issue, int producer) {
            int[] order = scoreboardOrder(c);
            if (group != -1) {
                for (int k : order) {
                    if (st.sbCount[k] > 0 && st.sbGroup[k] == group) {
                        return take(st, k, group, issue, producer);
                    }
                }
            }
            for (int k : order) {
                if (st.sbCount[k] == 0) {
                    return take(st, k, group, issue, producer);
                }
            }
            int oldest = order[0];
            for (int k : order) {
                if (st.sbSet[k] < st.sbSet[oldest]) {
                    oldest = k;
                }
            }
            return take(st, oldest, group, issue, producer);
        }

        /** The scoreboards {@code c} may take, in its preferred order (never changed by the caller). */
        private int[] scoreboardOrder(OpClass c) {
            int[] order = orderByClass[c.id()];
            if (order == null) {
                order = c.scoreboardOrder().length > 0 ? c.scoreboardOrder() : ANY_SCOREBOARD;
                if (copyGroups) { // SB0 counts the copy groups DEPBAR.LE waits for: nothing else may touch it
                    order = Arrays.stream(order).filter(k -> k != COPY_GROUP_SB).toArray();
                }
                orderByClass[c.id()] = order;
            }
            return order;
        }

        private int take(IssueState st, int k, int group, long issue, int producer) {
            st.recordSet(k, issue);
            st.sbGroup[k] = group;
            st.sbProducer[k] = producer;
            return k;
        }

        private int reuse(SchedInstr a, SchedInstr b) {
            List<RegRange> sa = a.reuseSlots();
            List<RegRange> sb = b.reuseSlots();
            int mask = 0;
            for (int k = 0; k < Math.min(Math.min(sa.size(), sb.size()), 4); k++) {
                RegRange x = sa.get(k);
                RegRange y = sb.get(k);
                if (x != null && y != null && x.file() == RegFile.R && !x.isZero() && x.equals(y) && !writes(a, x)) {
                    mask |= 1 << k;
                }
            }
            return mask;
        }

        private boolean writes(SchedInstr a, RegRange r) {
            List<RegRange> defs = a.defs();
            for (int k = 0; k < defs.size(); k++) {
                RegRange d = defs.get(k);
                if (d.overlaps(r)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Where the trailing NOP padding of a function starts ({@code code.size()} when there is none). */
    private static int paddingStart(List<? extends SchedInstr> code) {
        int tail = code.size();
        while (tail > 0 && code.get(tail - 1).has(SchedFlag.NOP)) {
            tail--;
        }
        return tail;
    }
}
