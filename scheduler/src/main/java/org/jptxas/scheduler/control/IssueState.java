package org.jptxas.scheduler.control;

import java.util.Arrays;
import java.util.BitSet;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.ScoreboardDrain;

/**
 * What the issue logic knows at one point of the program, per register: the last fixed-latency writer (class and
 * issue cycle), the scoreboards covering a pending variable-latency write or a pending late read; per scoreboard:
 * how many producers are outstanding and when the last was set; per pipe: when it accepts the next instruction.
 * States of several predecessors merge conservatively at a join. Shared by the generator and the hazard checker.
 */
public final class IssueState {
    /** In {@link #writeSb}: a variable-latency write that set no scoreboard at all. */
    public static final int NO_SCOREBOARD = 1 << 7;
    static final long NEVER = Long.MIN_VALUE / 4;

    /** The cycle at which control leaves an instruction (for re-basing its exit state onto a join). */
    interface ExitClock {
        long exitTime(int instruction);
    }
    /**
     * Producers remembered per scoreboard for {@code DEPBAR.LE} counts: as many as the count field holds (ptxas keeps
     * 20 and more texture fetches in flight on one scoreboard and drains them with {@code DEPBAR.LE SB5, 0x13}).
     */
    private static final int HISTORY = 64;

    final int[][] writerClass = new int[RegFile.values().length][];
    final long[][] writeTime = new long[RegFile.values().length][];
    /** Producer index (for reports); -1 when merged or unknown. */
    final int[][] writer = new int[RegFile.values().length][];
    /** Per register: the scoreboards of a pending variable-latency write; set through {@link #setWriteSb}. */
    final int[][] writeSb = new int[RegFile.values().length][];
    /** Per register: the read scoreboards of pending late reads; added to through {@link #addReadSb}. */
    final int[][] readSb = new int[RegFile.values().length][];
    /**
     * Per file, a bit per register whose {@link #writeSb} or {@link #readSb} may be nonzero (every nonzero one has its
     * bit): a wait then visits the few registers with something pending instead of every register of every file.
     */
    private final BitSet[] pending = new BitSet[RegFile.values().length];
    /**
     * Per file, a bit per register whose per-register state may differ from a fresh state's (written, or read late,
     * on some path): merges, shifts and drains visit these instead of every register of every file.
     */
    private final BitSet[] touched = new BitSet[RegFile.values().length];
    final int[][] reader = new int[RegFile.values().length][];
    final int[] sbCount = new int[8];
    final long[] sbSet = new long[8];
    final int[] sbGroup = new int[8];
    final int[] sbProducer = new int[8];
    /** Pipe of the last producer set on each scoreboard (-1: none). */
    final int[] sbPipe = new int[8];
    /** Per register: pipe of a pending variable-latency write (for in-order completion), -1 otherwise. */
    final int[][] writePipe = new int[RegFile.values().length][];
    /** Per register: class of a pending variable-latency write (for its latency bound), -1 otherwise. */
    final int[][] varClass = new int[RegFile.values().length][];
    /** Per register: written as the low half of a 64-bit result by a class that writes it early. */
    final boolean[][] wideLow = new boolean[RegFile.values().length][];
    final long[] pipeFree;
    /**
     * Per register with pending late reads, per read scoreboard k (bits [6k, 6k+6)): write scoreboards whose
     * completion implies that read is done (the reader's own result is written after it read its sources).
     */
    final long[][] readCover = new long[RegFile.values().length][];
    /**
     * Per scoreboard: issue cycles of its pending producers, newest first; length -1 when unknown (after a join). Each
     * array grows as producers are recorded (at most {@link #HISTORY}) and holds at least its length's entries: most
     * scoreboards have a few pending producers, and every copy of a state (one per conditional branch) copies these.
     */
    final long[][] sbHistory = new long[8][];
    final int[] sbHistoryLength = new int[8];

    public IssueState(int pipes) {
        for (RegFile f : RegFile.values()) {
            int k = f.ordinal();
            writerClass[k] = filled(f.size(), -1);
            writeTime[k] = new long[f.size()];
            Arrays.fill(writeTime[k], NEVER);
            writer[k] = filled(f.size(), -1);
            writeSb[k] = new int[f.size()];
            readSb[k] = new int[f.size()];
            reader[k] = filled(f.size(), -1);
            writePipe[k] = filled(f.size(), -1);
            varClass[k] = filled(f.size(), -1);
            wideLow[k] = new boolean[f.size()];
            readCover[k] = new long[f.size()];
            pending[k] = new BitSet(f.size());
            touched[k] = new BitSet(f.size());
        }
        for (int k = 0; k < 8; k++) {
            sbHistory[k] = NO_HISTORY;
        }
        Arrays.fill(sbPipe, -1);
        Arrays.fill(sbSet, NEVER);
        Arrays.fill(sbGroup, -1);
        Arrays.fill(sbProducer, -1);
        pipeFree = new long[pipes];
        Arrays.fill(pipeFree, NEVER);
    }

    private static int[] filled(int n, int v) {
        int[] a = new int[n];
        Arrays.fill(a, v);
        return a;
    }

    public IssueState copy() {
        return new IssueState(this);
    }

    /** A copy of {@code o}: every array cloned, none filled first. */
    private IssueState(IssueState o) {
        for (int k = 0; k < writerClass.length; k++) {
            writerClass[k] = o.writerClass[k].clone();
            writeTime[k] = o.writeTime[k].clone();
            writer[k] = o.writer[k].clone();
            writeSb[k] = o.writeSb[k].clone();
            readSb[k] = o.readSb[k].clone();
            reader[k] = o.reader[k].clone();
            writePipe[k] = o.writePipe[k].clone();
            varClass[k] = o.varClass[k].clone();
            wideLow[k] = o.wideLow[k].clone();
            readCover[k] = o.readCover[k].clone();
            pending[k] = (BitSet) o.pending[k].clone();
            touched[k] = (BitSet) o.touched[k].clone();
        }
        for (int k = 0; k < 8; k++) {
            sbHistory[k] = historyCopy(o.sbHistory[k], o.sbHistoryLength[k]);
        }
        System.arraycopy(o.sbHistoryLength, 0, sbHistoryLength, 0, 8);
        System.arraycopy(o.sbPipe, 0, sbPipe, 0, 8);
        System.arraycopy(o.sbCount, 0, sbCount, 0, 8);
        System.arraycopy(o.sbSet, 0, sbSet, 0, 8);
        System.arraycopy(o.sbGroup, 0, sbGroup, 0, 8);
        System.arraycopy(o.sbProducer, 0, sbProducer, 0, 8);
        pipeFree = o.pipeFree.clone();
    }

    /**
     * The exit state a jump from instruction {@code i} carries to its target: {@code current} itself where control
     * does not fall through to the next instruction (that one starts from a join, so nothing changes the state
     * after it), else a copy.
     */
    static IssueState exitOf(IssueState current, int i, ControlFlow flow) {
        return i + 1 < flow.size() && flow.fallsInto(i + 1) ? current.copy() : current;
    }

    /**
     * The state where instruction {@code i} joins control flow: the state falling into it ({@code current}, when
     * the previous instruction falls through) merged with the exit state of each jump predecessor that has one,
     * re-based from the predecessor's exit cycle ({@code clock}) to this entry's cycle {@code at}; a fresh state when
     * there is neither. Exit states no later join in this pass asks for are dropped from {@code exits}.
     */
    static IssueState atJoin(int i, IssueState current, ControlFlow flow, IssueState[] exits, long at,
                             ExitClock clock, LatencyModel model) {
        IssueState merged = flow.fallsInto(i) ? current : null;
        for (int p : flow.jumpPredecessors(i)) {
            if (exits[p] != null) {
                long delta = at - clock.exitTime(p);
                if (merged == null) {
                    // the last join that asks for this exit state drops it below: re-based in place, not copied
                    merged = (flow.lastUseOfExit(p, i) ? exits[p] : exits[p].copy()).shift(delta);
                } else if (exits[p] == merged) {
                    // the state a jump left is the one falling through (no join since): merge a snapshot
                    merged.mergeFrom(exits[p].copy(), delta, model);
                } else {
                    // merged in place, re-based on the fly: a copy of a whole state per join edge is the costly part
                    merged.mergeFrom(exits[p], delta, model);
                }
            }
        }
        for (int p : flow.jumpPredecessors(i)) {
            if (flow.lastUseOfExit(p, i)) {
                exits[p] = null; // no later join asks for it; a later pass sets it again before its jump is reached
            }
        }
        return merged != null ? merged : new IssueState(model.pipeCount());
    }

    /** A DEPBAR's wait: the scoreboards it drains are clear, a partial drain leaves at most its pending count. */
    void drain(ScoreboardDrain drain, boolean[] inOrderPipe) {
        if (drain.isNone()) {
            return;
        }
        clearWaitedInOrder(drain.drained(), inOrderPipe);
        if (drain.partial() >= 0) {
            drainTo(drain.partial(), drain.pending(), inOrderPipe);
        }
    }

    /** Moves every recorded cycle by {@code delta} (to re-base a predecessor's state onto a join point). */
    public IssueState shift(long delta) {
        for (int f = 0; f < writeTime.length; f++) {
            long[] t = writeTime[f];
            for (int r = touched[f].nextSetBit(0); r >= 0; r = touched[f].nextSetBit(r + 1)) {
                t[r] = shifted(t[r], delta);
            }
        }
        for (int k = 0; k < 8; k++) {
            sbSet[k] = shifted(sbSet[k], delta);
            for (int h = 0; h < sbHistoryLength[k]; h++) {
                sbHistory[k][h] += delta;
            }
        }
        for (int p = 0; p < pipeFree.length; p++) {
            pipeFree[p] = shifted(pipeFree[p], delta);
        }
        return this;
    }

    /** Adds {@code o}'s constraints to this state: the later fixed-latency result, the union of pending scoreboards. */
    public void mergeFrom(IssueState o, LatencyModel model) {
        mergeFrom(o, 0, model);
    }

    /** {@link #mergeFrom(IssueState, LatencyModel)} of {@code o} {@linkplain #shift shifted} by {@code delta}; {@code o} stays as it is. */
    void mergeFrom(IssueState o, long delta, LatencyModel model) {
        for (int k = 0; k < writerClass.length; k++) {
            RegFile file = RegFile.values()[k];
            BitSet theirs = o.touched[k];
            // a register o never touched has a fresh state, which adds nothing
            for (int r = theirs.nextSetBit(0); r >= 0; r = theirs.nextSetBit(r + 1)) {
                long oTime = shifted(o.writeTime[k][r], delta);
                if (o.writerClass[k][r] >= 0 && oTime != NEVER
                        && (writerClass[k][r] < 0 || ready(o, k, r, file, model) + delta > ready(this, k, r, file, model))) {
                    // An early low half only when no other path wrote the register (conservative at joins).
                    wideLow[k][r] = o.wideLow[k][r] && writerClass[k][r] < 0;
                    writerClass[k][r] = o.writerClass[k][r];
                    writeTime[k][r] = oTime;
                    writer[k][r] = o.writer[k][r];
                } else if (o.writerClass[k][r] >= 0) {
                    wideLow[k][r] &= o.wideLow[k][r];
                }
                if (o.writeSb[k][r] != 0) {
                    writeSb[k][r] |= o.writeSb[k][r];
                    writer[k][r] = o.writer[k][r];
                    varClass[k][r] = o.varClass[k][r];
                    writePipe[k][r] = o.writePipe[k][r];
                    writeTime[k][r] = Math.max(writeTime[k][r], oTime); // the later write is the stricter
                }
                if (o.readSb[k][r] != 0) {
                    // The union of pending reads is covered only by a write both paths' readers share.
                    readCover[k][r] = mergeCover(readSb[k][r], readCover[k][r], o.readSb[k][r], o.readCover[k][r]);
                    readSb[k][r] |= o.readSb[k][r];
                    reader[k][r] = o.reader[k][r];
                }
            }
            pending[k].or(o.pending[k]);
            touched[k].or(theirs);
        }
        for (int k = 0; k < 8; k++) {
            if (o.sbCount[k] > 0) {
                if (sbCount[k] > 0) {
                    sbHistoryLength[k] = -1; // producers of two paths: which are the newest is unknown
                } else {
                    sbHistory[k] = historyCopy(o.sbHistory[k], o.sbHistoryLength[k]);
                    sbHistoryLength[k] = o.sbHistoryLength[k];
                    for (int h = 0; h < sbHistoryLength[k]; h++) {
                        sbHistory[k][h] += delta;
                    }
                }
                sbGroup[k] = sbCount[k] > 0 && sbGroup[k] != o.sbGroup[k] ? -1 : o.sbGroup[k];
                sbCount[k] = Math.max(sbCount[k], o.sbCount[k]);
                sbProducer[k] = o.sbProducer[k];
            }
            sbSet[k] = Math.max(sbSet[k], shifted(o.sbSet[k], delta));
        }
        for (int p = 0; p < pipeFree.length; p++) {
            pipeFree[p] = Math.max(pipeFree[p], shifted(o.pipeFree[p], delta));
        }
    }

    /** A recorded cycle moved by {@code delta} ({@link #NEVER} stays): what {@link #shift} does to each. */
    private static long shifted(long t, long delta) {
        return t != NEVER ? t + delta : t;
    }

    private static long ready(IssueState s, int k, int r, RegFile f, LatencyModel model) {
        if (s.writerClass[k][r] < 0 || s.writeTime[k][r] == NEVER) {
            return NEVER;
        }
        OpClass c = model.classById(s.writerClass[k][r]);
        return s.writeTime[k][r] + Math.max(0, model.rawOrDefault(c, f, 0));
    }

    /**
     * Scoreboards in {@code mask} are waited for; and because a pipe's results come back in order, so is every
     * earlier write of the same in-order pipe that set no scoreboard of its own (ptxas relies on this for shared
     * loads: only the last of a group carries a scoreboard).
     */
    public void clearWaitedInOrder(int mask, boolean[] inOrderPipe) {
        for (int k = 0; k < 8; k++) {
            if ((mask >> k & 1) == 0 || sbCount[k] == 0 || sbPipe[k] < 0 || !inOrderPipe[sbPipe[k]]) {
                continue;
            }
            for (int f = 0; f < writeSb.length; f++) {
                for (int r = nextPending(f, 0); r >= 0; r = nextPending(f, r + 1)) {
                    if (writeSb[f][r] == NO_SCOREBOARD && writePipe[f][r] == sbPipe[k] && writeTime[f][r] <= sbSet[k]) {
                        writeSb[f][r] = 0;
                        settle(f, r);
                    }
                }
            }
        }
        clearWaited(mask);
    }

    /**
     * Whether the pending variable-latency write of register {@code r} in file {@code f} is complete at cycle
     * {@code t} by its class's latency bound (ptxas relies on it instead of a scoreboard far enough away).
     */
    boolean boundElapsed(int f, int r, long t, LatencyModel model) {
        int vc = varClass[f][r];
        if (vc < 0 || writeTime[f][r] == NEVER) {
            return false;
        }
        int bound = model.classById(vc).maxLatency();
        return bound > 0 && t - writeTime[f][r] >= bound;
    }

    /** Read scoreboard bit {@code k}'s slot in a {@link #readCover} word. */
    static long coverSlot(int k, int writeSbMask) {
        return (long) (writeSbMask & 0x3f) << (6 * k);
    }

    /** Pending reads {@code pending} after waiting on {@code mask}: direct waits, and waits on a covering write. */
    private static int clearReads(int pending, long cover, int mask) {
        int left = pending & ~mask;
        for (int k = 0; k < 6; k++) {
            if ((left >> k & 1) != 0 && (cover >>> (6 * k) & mask & 0x3f) != 0) {
                left &= ~(1 << k);
            }
        }
        return left;
    }

    /** Covers of a union of pending reads: where both paths have a read on the same scoreboard, only common covers. */
    private static long mergeCover(int pa, long ca, int pb, long cb) {
        long out = 0;
        for (int k = 0; k < 6; k++) {
            long a = ca >>> (6 * k) & 0x3f;
            long b = cb >>> (6 * k) & 0x3f;
            boolean inA = (pa >> k & 1) != 0;
            boolean inB = (pb >> k & 1) != 0;
            long c = inA && inB ? a & b : inA ? a : inB ? b : 0;
            out |= c << (6 * k);
        }
        return out;
    }

    /** A producer issued at cycle {@code t} sets scoreboard {@code k}. */
    void recordSet(int k, long t) {
        sbCount[k]++;
        sbSet[k] = t;
        if (sbHistoryLength[k] >= 0) {
            int length = Math.min(HISTORY, sbHistoryLength[k] + 1);
            long[] h = sbHistory[k];
            if (h.length < length) {
                h = Arrays.copyOf(h, Math.min(HISTORY, Math.max(4, 2 * h.length)));
                sbHistory[k] = h;
            }
            System.arraycopy(h, 0, h, 1, length - 1);
            h[0] = t;
            sbHistoryLength[k] = length;
        }
    }

    private static final long[] NO_HISTORY = new long[0];

    /** The first {@code length} entries of a history (none when its length is unknown). */
    private static long[] historyCopy(long[] history, int length) {
        return length <= 0 ? NO_HISTORY : Arrays.copyOf(history, length);
    }

    /**
     * {@code DEPBAR.LE SBk, pending}: scoreboard {@code k} counts down to its {@code pending} newest producers. When its
     * pipe returns results in order, every older write it covers is complete, and so is every older write of that
     * pipe that set no scoreboard. Without a known history (after a join) nothing is assumed.
     */
    public void drainTo(int k, int pending, boolean[] inOrderPipe) {
        if (sbCount[k] <= pending) {
            return;
        }
        if (pending == 0) {
            clearWaitedInOrder(1 << k, inOrderPipe);
            return;
        }
        if (sbPipe[k] < 0 || !inOrderPipe[sbPipe[k]] || sbHistoryLength[k] <= pending || sbCount[k] > sbHistoryLength[k]) {
            return;
        }
        long done = sbHistory[k][pending];
        for (int f = 0; f < writeSb.length; f++) {
            for (int r = nextPending(f, 0); r >= 0; r = nextPending(f, r + 1)) {
                int ws = writeSb[f][r];
                if (ws != 0 && writeTime[f][r] <= done
                        && ((ws & NO_SCOREBOARD) == 0 ? (ws >> k & 1) != 0 : writePipe[f][r] == sbPipe[k])) {
                    writeSb[f][r] = (ws & NO_SCOREBOARD) == 0 ? ws & ~(1 << k) : 0;
                    settle(f, r);
                }
            }
        }
        sbCount[k] = pending;
        sbHistoryLength[k] = pending;
    }

    /** Scoreboards in {@code mask} are waited for: their producers are complete. */
    public void clearWaited(int mask) {
        if (mask == 0) {
            return;
        }
        for (int k = 0; k < 8; k++) {
            if ((mask >> k & 1) != 0) {
                sbCount[k] = 0;
                sbGroup[k] = -1;
                sbHistoryLength[k] = 0;
            }
        }
        int keep = ~mask;
        for (int f = 0; f < writeSb.length; f++) {
            int[] ws = writeSb[f];
            int[] rs = readSb[f];
            for (int r = nextPending(f, 0); r >= 0; r = nextPending(f, r + 1)) {
                if (ws[r] != 0 && (ws[r] & NO_SCOREBOARD) == 0) {
                    ws[r] &= keep;
                }
                if (rs[r] != 0) {
                    rs[r] = clearReads(rs[r], readCover[f][r], mask);
                }
                settle(f, r);
            }
        }
    }

    /**
     * Register {@code r} of file {@code f} is written, and waits for the write scoreboards {@code sb} (0: none). Every
     * write of a register's state goes through here or {@link #addReadSb}, which keep {@link #touched} complete.
     */
    void setWriteSb(int f, int r, int sb) {
        writeSb[f][r] = sb;
        touched[f].set(r);
        if (sb != 0) {
            pending[f].set(r);
        }
    }

    /** A late read of register {@code r} of file {@code f} is pending on the read scoreboards {@code sb}. */
    void addReadSb(int f, int r, int sb) {
        readSb[f][r] |= sb;
        touched[f].set(r);
        pending[f].set(r);
    }

    /** The first register from {@code from} on in file {@code f} with something pending, or -1. */
    private int nextPending(int f, int from) {
        return pending[f].nextSetBit(from);
    }

    /**
     * The first register from {@code from} on in file {@code f} whose state may differ from a fresh state's, or -1:
     * every register with a fixed-latency writer ({@link #writerClass} set) is among them.
     */
    int nextTouched(int f, int from) {
        return touched[f].nextSetBit(from);
    }

    /** Drops register {@code r}'s pending bit once nothing is pending on it. */
    private void settle(int f, int r) {
        if (writeSb[f][r] == 0 && readSb[f][r] == 0) {
            pending[f].clear(r);
        }
    }
}
