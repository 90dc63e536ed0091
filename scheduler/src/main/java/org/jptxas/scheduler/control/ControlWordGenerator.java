package org.jptxas.scheduler.control;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
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
 * The simulation is linear over the sequence; branch targets take the fall-through state. Stateless; thread-safe.
 */
public final class ControlWordGenerator {
    private final LatencyModel model;

    public ControlWordGenerator(LatencyModel model) {
        this.model = model;
    }

    /** Control words for {@code code} in its given order. */
    public List<ControlWord> generate(List<? extends SchedInstr> code) {
        return new Run(code).run();
    }

    private final class Run {
        private final List<? extends SchedInstr> code;
        private final int n;
        private final OpClass[] cls;
        private final int[] firstConsumer;
        private final int[] firstOverwrite;
        private final int guardGroup = model.readerGroup(LatencyModel.GUARD);
        private final int branchGroup = model.readerGroup(LatencyModel.BRANCH);

        // Per register: last writer (index), whether it waits on a scoreboard, and the scoreboard of a late reader.
        private final int[][] writer = new int[RegFile.values().length][];
        private final int[][] writerSb = new int[RegFile.values().length][];
        private final int[][] readerSb = new int[RegFile.values().length][];
        private final long[] time;
        private final int[] sbProducers = new int[8];
        private final long[] sbSetTime = new long[8];
        private final int[] sbGroup = new int[8];
        private final long[] pipeFree;

        Run(List<? extends SchedInstr> code) {
            this.code = code;
            n = code.size();
            cls = new OpClass[n];
            for (int i = 0; i < n; i++) {
                cls[i] = model.opClass(code.get(i).latencyClass());
            }
            for (RegFile f : RegFile.values()) {
                writer[f.ordinal()] = filled(f.size());
                writerSb[f.ordinal()] = filled(f.size());
                readerSb[f.ordinal()] = filled(f.size());
            }
            time = new long[n];
            pipeFree = new long[model.pipeCount()];
            Arrays.fill(sbGroup, -1);
            firstConsumer = new int[n];
            firstOverwrite = new int[n];
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
            for (RegFile f : RegFile.values()) {
                lastW[f.ordinal()] = filled(f.size());
            }
            int[][] lastLateReader = new int[RegFile.values().length][];
            for (RegFile f : RegFile.values()) {
                lastLateReader[f.ordinal()] = filled(f.size());
            }
            for (int idx = 0; idx < n; idx++) {
                final int i = idx;
                SchedInstr in = code.get(i);
                for (RegRange r : reads(in)) {
                    forEach(r, (f, reg) -> {
                        int w = lastW[f][reg];
                        if (w >= 0 && cls[w].variable() && firstConsumer[w] < 0) {
                            firstConsumer[w] = i;
                        }
                    });
                }
                for (RegRange r : in.defs()) {
                    forEach(r, (f, reg) -> {
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
                    });
                }
                if (cls[i].readsLate()) {
                    for (RegRange r : in.uses()) {
                        forEach(r, (f, reg) -> lastLateReader[f][reg] = i);
                    }
                }
            }
        }

        List<ControlWord> run() {
            int[] stall = new int[n];
            boolean[] latencyBound = new boolean[n];
            int[] wait = new int[n];
            int[] wr = new int[n];
            int[] rd = new int[n];
            Arrays.fill(wr, ControlWord.NONE);
            Arrays.fill(rd, ControlWord.NONE);
            long t = 0;
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                OpClass c = cls[i];
                long minIssue = 0;
                long depIssue = 0;
                if (i > 0) {
                    minIssue = time[i - 1] + Math.max(1, cls[i - 1].minStall());
                }
                minIssue = Math.max(minIssue, pipeFree[c.pipe()]);
                int waitMask = 0;
                int group = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT) ? branchGroup : c.readerGroup();
                // True dependences.
                for (RegRange r : in.uses()) {
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        int w = writer[f][reg];
                        if (w < 0) {
                            continue;
                        }
                        if (writerSb[f][reg] >= 0) {
                            waitMask |= 1 << writerSb[f][reg];
                            minIssue = Math.max(minIssue, time[w] + model.rawOrDefault(cls[w], r.file(), group));
                        } else if (!cls[w].variable()) {
                            depIssue = Math.max(depIssue, time[w] + model.rawOrDefault(cls[w], r.file(), group));
                        }
                    }
                }
                if (in.guard() != null && !in.guard().isZero()) {
                    int f = in.guard().file().ordinal();
                    int reg = in.guard().first();
                    int w = writer[f][reg];
                    if (w >= 0) {
                        if (writerSb[f][reg] >= 0) {
                            waitMask |= 1 << writerSb[f][reg];
                        } else if (!cls[w].variable()) {
                            int g = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT) ? branchGroup : guardGroup;
                            depIssue = Math.max(depIssue, time[w] + model.rawOrDefault(cls[w], in.guard().file(), g));
                        }
                    }
                }
                // Output and anti dependences.
                for (RegRange r : in.defs()) {
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        if (writerSb[f][reg] >= 0) {
                            waitMask |= 1 << writerSb[f][reg];
                        } else if (writer[f][reg] >= 0 && !cls[writer[f][reg]].variable() && c.variable()) {
                            depIssue = Math.max(depIssue, time[writer[f][reg]] + model.waw(cls[writer[f][reg]], c));
                        }
                        if (readerSb[f][reg] >= 0) {
                            waitMask |= 1 << readerSb[f][reg];
                        }
                    }
                }
                for (int k = 0; k < model.scoreboards(); k++) {
                    if ((waitMask >> k & 1) != 0) {
                        minIssue = Math.max(minIssue, sbSetTime[k] + model.scoreboardSetup());
                    }
                }
                long issue = Math.max(minIssue, depIssue);
                if (i > 0) {
                    long s = Math.min(model.maxStall(), issue - time[i - 1]);
                    stall[i - 1] = (int) s;
                    latencyBound[i - 1] = depIssue > minIssue;
                    issue = time[i - 1] + s;
                }
                time[i] = issue;
                t = issue;
                wait[i] = waitMask;
                clearWaited(waitMask);
                pipeFree[c.pipe()] = issue + model.pipeBusy(c);
                // Effects of i.
                int wsb = -1;
                if (c.variable() && !in.defs().isEmpty() && hasRealDef(in)) {
                    wsb = allocate(c, firstConsumer[i], issue);
                    wr[i] = wsb;
                }
                for (RegRange r : in.defs()) {
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        int f = r.file().ordinal();
                        writer[f][reg] = i;
                        writerSb[f][reg] = wsb;
                        readerSb[f][reg] = -1;
                    }
                }
                if (c.readsLate() && firstOverwrite[i] >= 0) {
                    int rsb = allocate(c, -2 - firstOverwrite[i], issue);
                    rd[i] = rsb;
                    for (RegRange r : in.uses()) {
                        for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                            readerSb[r.file().ordinal()][reg] = rsb;
                        }
                    }
                }
            }
            if (n > 0) {
                stall[n - 1] = Math.max(1, cls[n - 1].minStall());
            }
            List<ControlWord> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                SchedInstr in = code.get(i);
                boolean nop = in.has(SchedFlag.NOP) || stall[i] == 0;
                if (nop && in.has(SchedFlag.NOP)) {
                    stall[i] = 0;
                }
                boolean yield = !nop && stall[i] <= cls[i].yieldMaxStall()
                        && !(stall[i] == 2 && latencyBound[i] && !cls[i].variable());
                int reuse = yield && i + 1 < n ? reuse(in, code.get(i + 1)) : 0;
                out.add(new ControlWord(stall[i], yield, wr[i], rd[i], wait[i], reuse));
            }
            return out;
        }

        private boolean hasRealDef(SchedInstr in) {
            for (RegRange r : in.defs()) {
                if (!r.isZero() && r.file() != RegFile.B) {
                    return true;
                }
            }
            return false;
        }

        /** Frees waited scoreboards: registers they covered become plain (completed) values. */
        private void clearWaited(int mask) {
            if (mask == 0) {
                return;
            }
            for (int k = 0; k < model.scoreboards(); k++) {
                if ((mask >> k & 1) != 0) {
                    sbProducers[k] = 0;
                    sbGroup[k] = -1;
                }
            }
            for (RegFile f : RegFile.values()) {
                int[] ws = writerSb[f.ordinal()];
                int[] rs = readerSb[f.ordinal()];
                for (int r = 0; r < ws.length; r++) {
                    if (ws[r] >= 0 && (mask >> ws[r] & 1) != 0) {
                        ws[r] = -1;
                    }
                    if (rs[r] >= 0 && (mask >> rs[r] & 1) != 0) {
                        rs[r] = -1;
                    }
                }
            }
        }

        /**
         * Picks a scoreboard: one already pending for the same first consumer ({@code group}), else the first free one
         * in the class's preferred order, else the one set longest ago (recycled: its consumers then wait for both).
         */
        private int allocate(OpClass c, int group, long issue) {
            int[] order = c.scoreboardOrder().length > 0 ? c.scoreboardOrder() : new int[] {0, 1, 2, 3, 4, 5};
            if (group != -1) {
                for (int k : order) {
                    if (sbProducers[k] > 0 && sbGroup[k] == group) {
                        return take(k, group, issue);
                    }
                }
            }
            for (int k : order) {
                if (sbProducers[k] == 0) {
                    return take(k, group, issue);
                }
            }
            int oldest = order[0];
            for (int k : order) {
                if (sbSetTime[k] < sbSetTime[oldest]) {
                    oldest = k;
                }
            }
            return take(oldest, group, issue);
        }

        private int take(int k, int group, long issue) {
            sbProducers[k]++;
            sbGroup[k] = group;
            sbSetTime[k] = issue;
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
            for (RegRange d : a.defs()) {
                if (d.overlaps(r)) {
                    return true;
                }
            }
            return false;
        }
    }

    static List<RegRange> reads(SchedInstr in) {
        if (in.guard() == null) {
            return in.uses();
        }
        List<RegRange> all = new ArrayList<>(in.uses());
        all.add(in.guard());
        return all;
    }

    interface RegVisitor {
        void visit(int file, int reg);
    }

    static void forEach(RegRange r, RegVisitor v) {
        if (r.isZero()) {
            return;
        }
        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
            v.visit(r.file().ordinal(), reg);
        }
    }
}
