package org.jptxas.scheduler.control;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardKind;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * The simulation behind {@link org.jptxas.scheduler.hazard.HazardChecker}: replays given control words over the
 * same {@link IssueState} the generator uses, so the two cannot drift apart. Issue cycles follow the stall counts;
 * a scoreboard wait returns as soon as it is allowed (the worst case for what follows).
 */
public final class HazardScan {
    private final LatencyModel model;

    public HazardScan(LatencyModel model) {
        this.model = model;
    }

    public List<Hazard> check(List<? extends SchedInstr> code, List<ControlWord> control, ControlFlow flow) {
        int n = code.size();
        if (n != control.size() || n != flow.size()) {
            throw new IllegalArgumentException(n + " instructions, " + control.size() + " control words, "
                    + flow.size() + " flow entries");
        }
        OpClass[] cls = new OpClass[n];
        boolean[] jumpSource = new boolean[n];
        boolean backEdges = false;
        for (int i = 0; i < n; i++) {
            cls[i] = model.opClass(code.get(i).latencyClass());
            for (int p : flow.jumpPredecessors(i)) {
                jumpSource[p] = true;
                backEdges |= p >= i;
            }
        }
        IssueState[] exits = new IssueState[n];
        long[] time = new long[n]; // kept across passes: a back edge re-bases on the previous pass's cycles
        List<Hazard> out = null;
        for (int pass = 0; pass < (backEdges ? 2 : 1); pass++) {
            out = pass(code, control, flow, cls, jumpSource, exits, time);
        }
        return out;
    }

    /** Pipes whose variable-latency results return in issue order (the table's {@code inOrder}). */
    private boolean[] inOrderPipes() {
        boolean[] in = new boolean[model.pipeCount()];
        for (int p = 0; p < in.length; p++) {
            in[p] = model.inOrder(p);
        }
        return in;
    }

    private List<Hazard> pass(List<? extends SchedInstr> code, List<ControlWord> control, ControlFlow flow, OpClass[] cls,
                              boolean[] jumpSource, IssueState[] exits, long[] time) {
        int n = code.size();
        int guardGroup = model.readerGroup(LatencyModel.GUARD);
        int branchGroup = model.readerGroup(LatencyModel.BRANCH);
        List<Hazard> out = new ArrayList<>();
        boolean[] inOrderPipe = inOrderPipes();
        IssueState st = new IssueState(model.pipeCount());
        IssueState.ExitClock exitClock = p -> time[p] + Math.max(1, control.get(p).stall());
        long t = 0;
        for (int i = 0; i < n; i++) {
            SchedInstr in = code.get(i);
            OpClass c = cls[i];
            ControlWord cw = control.get(i);
            if (flow.isJoin(i)) {
                st = IssueState.atJoin(i, st, flow, exits, t, exitClock, model);
            }
            time[i] = t;
            int mask = cw.waitMask();
            for (int k = 0; k < 6; k++) {
                if ((mask >> k & 1) != 0 && st.sbCount[k] > 0 && t < st.sbSet[k] + model.scoreboardSetup()) {
                    out.add(new Hazard(i, st.sbProducer[k], HazardKind.WAIT_TOO_EARLY,
                            "SB" + k + " waited " + (t - st.sbSet[k]) + " cycles after it was set"));
                }
            }
            st.clearWaitedInOrder(mask, inOrderPipe);
            boolean branch = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT);
            List<RegRange> uses = in.uses();
            for (int u = 0; u < uses.size(); u++) {
                RegRange r = uses.get(u);
                checkRead(i, r, branch ? branchGroup : c.readerGroup(), t, lateHigh(c, r), st, out);
            }
            if (in.guard() != null) {
                checkRead(i, in.guard(), branch ? branchGroup : guardGroup, t, 0, st, out);
            }
            List<RegRange> defs = in.defs();
            for (int d = 0; d < defs.size(); d++) {
                RegRange r = defs.get(d);
                for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                    int f = r.file().ordinal();
                    if (st.writeSb[f][reg] != 0 && !st.boundElapsed(f, reg, t, model)
                            && !(c.variable() && st.writePipe[f][reg] == c.pipe() && inOrderPipe[c.pipe()])
                            && !exclusive(code, st.writer[f][reg], i, st)) {
                        out.add(new Hazard(i, st.writer[f][reg], HazardKind.WAW, name(r.file(), reg) + " still being written"));
                    }
                    int lateReader = st.reader[f][reg];
                    boolean queuedBehind = lateReader >= 0 && c.variable() && inOrderPipe[c.pipe()]
                            && cls[lateReader].pipe() == c.pipe(); // an in-order pipe reads before it writes back
                    if (st.readSb[f][reg] != 0 && !queuedBehind) {
                        out.add(new Hazard(i, st.reader[f][reg], HazardKind.WAR, name(r.file(), reg) + " may still be read"));
                    }
                }
            }
            int wsb = cw.writeSb() < 6 ? cw.writeSb() : -1;
            if (wsb >= 0) {
                if (st.sbCount[wsb] > 0) {
                    out.add(new Hazard(i, st.sbProducer[wsb], HazardKind.SCOREBOARD_SHARED, "SB" + wsb + " already pending"));
                }
                st.recordSet(wsb, t);
                st.sbProducer[wsb] = i;
                st.sbPipe[wsb] = c.pipe();
            }
            for (int d = 0; d < defs.size(); d++) {
                RegRange r = defs.get(d);
                for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                    int f = r.file().ordinal();
                    st.writer[f][reg] = i;
                    st.writerClass[f][reg] = c.variable() ? -1 : c.id();
                    st.writeTime[f][reg] = t;
                    boolean predicate = r.file() == RegFile.P || r.file() == RegFile.UP;
                    // A memory instruction's predicate result is known once its sources are read: ptxas covers it
                    // with the read scoreboard.
                    int cover = wsb >= 0 ? 1 << wsb : predicate && rsbOf(cw) >= 0 ? 1 << rsbOf(cw) : IssueState.NO_SCOREBOARD;
                    st.setWriteSb(f, reg, !c.variable() ? 0 : cover);
                    st.writePipe[f][reg] = c.variable() ? c.pipe() : -1;
                    st.varClass[f][reg] = c.variable() ? c.id() : -1;
                    st.wideLow[f][reg] = r.file() == RegFile.R && r.count() == 2 && reg == r.first() && !c.variable();
                    st.readSb[f][reg] = 0;
                }
            }
            int rsb = cw.readSb() < 6 ? cw.readSb() : -1;
            if (rsb >= 0) {
                st.recordSet(rsb, t);
                st.sbProducer[rsb] = i;
                for (int u = 0; u < uses.size(); u++) {
                    RegRange r = uses.get(u);
                    if (r.file() != RegFile.R) {
                        continue; // uniform operands and predicates are read at issue
                    }
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        st.addReadSb(r.file().ordinal(), reg, 1 << rsb);
                        st.reader[r.file().ordinal()][reg] = i;
                        long slot = IssueState.coverSlot(rsb, wsb >= 0 ? 1 << wsb : 0);
                        st.readCover[r.file().ordinal()][reg] = st.readCover[r.file().ordinal()][reg]
                                & ~IssueState.coverSlot(rsb, 0x3f) | slot;
                    }
                }
            }
            st.drain(in.scoreboardDrain(), inOrderPipe); // DEPBAR holds the next issue until they drain
            if (jumpSource[i]) {
                exits[i] = IssueState.exitOf(st, i, flow);
            }
            t += Math.max(1, cw.stall());
        }
        return out;
    }

    /**
     * Whether instructions {@code a} (earlier) and {@code b} never both execute: guarded by the same predicate with
     * opposite senses, the predicate not rewritten in between.
     */
    private static boolean exclusive(List<? extends SchedInstr> code, int a, int b, IssueState st) {
        if (a < 0 || a >= b) {
            return false;
        }
        RegRange ga = code.get(a).guard();
        RegRange gb = code.get(b).guard();
        return ga != null && ga.equals(gb) && !ga.isZero()
                && code.get(a).has(SchedFlag.NEGATED_GUARD) != code.get(b).has(SchedFlag.NEGATED_GUARD)
                && st.writer[ga.file().ordinal()][ga.first()] < a;
    }

    private static int rsbOf(ControlWord cw) {
        return cw.readSb() < 6 ? cw.readSb() : -1;
    }

    /** Cycles after issue at which {@code reader} reads the high register of {@code r} (a 64-bit R source). */
    private int lateHigh(OpClass reader, RegRange r) {
        return r.file() == RegFile.R && r.count() == 2 ? model.highHalfReadLate(reader) : 0;
    }

    private void checkRead(int i, RegRange r, int group, long t, int highLate, IssueState st, List<Hazard> out) {
        if (r.isZero()) {
            return;
        }
        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
            int f = r.file().ordinal();
            int w = st.writer[f][reg];
            if (reported(out, i, w)) {
                continue;
            }
            int sb = st.writeSb[f][reg];
            if (sb != 0 && st.boundElapsed(f, reg, t, model)) {
                continue;
            }
            if ((sb & IssueState.NO_SCOREBOARD) != 0) {
                out.add(new Hazard(i, w, HazardKind.RAW_SCOREBOARD,
                        name(r.file(), reg) + " read " + (t - st.writeTime[f][reg])
                                + " cycles after its variable-latency producer, which set no scoreboard"));
            } else if (sb != 0) {
                out.add(new Hazard(i, w, HazardKind.RAW_SCOREBOARD,
                        name(r.file(), reg) + " read without waiting on SB mask " + Integer.toBinaryString(sb), 0,
                        sb & ~IssueState.NO_SCOREBOARD));
            } else if (st.writerClass[f][reg] >= 0 && st.writeTime[f][reg] != IssueState.NEVER) {
                OpClass wc = model.classById(st.writerClass[f][reg]);
                int need = st.wideLow[f][reg] ? Math.min(model.rawLowHalf(wc, group), model.rawRequired(wc, r.file(), group))
                        : model.rawRequired(wc, r.file(), group);
                long have = t - st.writeTime[f][reg] + (reg == r.first() + 1 ? highLate : 0);
                if (have < need) {
                    out.add(new Hazard(i, w, HazardKind.RAW_STALL,
                            name(r.file(), reg) + " read " + have + " cycles after its producer, needs " + need,
                            (int) (need - have)));
                }
            }
        }
    }

    /** One report per producer and consumer pair (a value read twice is one hazard). */
    private static boolean reported(List<Hazard> out, int i, int producer) {
        for (int k = out.size() - 1; k >= 0 && out.get(k).index() == i; k--) {
            if (out.get(k).producer() == producer) {
                return true;
            }
        }
        return false;
    }

    private static String name(RegFile f, int reg) {
        return RegRange.of(f, reg).toString();
    }
}
