package org.jptxas.scheduler.hazard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * Checks an instruction sequence and its control words against a latency model: the earliest issue cycle of each
 * instruction follows from the stall counts; a scoreboard wait is assumed to return as soon as it is allowed (the
 * worst case for fixed-latency reads that follow). Linear over the sequence, like the generator; a branch target
 * inherits the fall-through state. Stateless; thread-safe. The simulator reuses it.
 */
public final class HazardChecker {
    /** Marks a register written by a variable-latency producer that set no scoreboard. */
    private static final int NO_SCOREBOARD = -2;

    private final LatencyModel model;

    public HazardChecker(LatencyModel model) {
        this.model = model;
    }

    /** Every hazard, in instruction order. */
    public List<Hazard> check(List<? extends SchedInstr> code, List<ControlWord> control) {
        if (code.size() != control.size()) {
            throw new IllegalArgumentException(code.size() + " instructions but " + control.size() + " control words");
        }
        int files = RegFile.values().length;
        int[][] writer = new int[files][];
        int[][] writerSb = new int[files][];
        int[][] readerSb = new int[files][];
        int[][] reader = new int[files][];
        for (RegFile f : RegFile.values()) {
            writer[f.ordinal()] = minusOnes(f.size());
            writerSb[f.ordinal()] = minusOnes(f.size());
            readerSb[f.ordinal()] = minusOnes(f.size());
            reader[f.ordinal()] = minusOnes(f.size());
        }
        long[] sbSet = new long[8];
        int[] sbPending = new int[8];
        int[] sbLastProducer = minusOnes(8);
        Arrays.fill(sbSet, Long.MIN_VALUE / 2);
        int guardGroup = model.readerGroup(LatencyModel.GUARD);
        int branchGroup = model.readerGroup(LatencyModel.BRANCH);
        List<Hazard> out = new ArrayList<>();
        OpClass[] cls = new OpClass[code.size()];
        long[] time = new long[code.size()];
        long t = 0;
        for (int i = 0; i < code.size(); i++) {
            SchedInstr in = code.get(i);
            OpClass c = cls[i] = model.opClass(in.latencyClass());
            ControlWord cw = control.get(i);
            time[i] = t;
            int mask = cw.waitMask();
            for (int k = 0; k < 6; k++) {
                if ((mask >> k & 1) != 0 && sbPending[k] > 0 && t < sbSet[k] + model.scoreboardSetup()) {
                    out.add(new Hazard(i, sbLastProducer[k], HazardKind.WAIT_TOO_EARLY,
                            "SB" + k + " waited " + (t - sbSet[k]) + " cycles after it was set"));
                }
            }
            // Waits complete before the instruction issues.
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
            for (int k = 0; k < 6; k++) {
                if ((mask >> k & 1) != 0) {
                    sbPending[k] = 0;
                }
            }
            boolean branch = in.has(SchedFlag.BRANCH) || in.has(SchedFlag.EXIT);
            int group = branch ? branchGroup : c.readerGroup();
            for (RegRange r : in.uses()) {
                checkRead(i, r, group, t, writer, writerSb, cls, time, out);
            }
            if (in.guard() != null) {
                checkRead(i, in.guard(), branch ? branchGroup : guardGroup, t, writer, writerSb, cls, time, out);
            }
            for (RegRange r : in.defs()) {
                for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                    int f = r.file().ordinal();
                    if (writerSb[f][reg] >= 0 || writerSb[f][reg] == NO_SCOREBOARD) {
                        out.add(new Hazard(i, writer[f][reg], HazardKind.WAW, name(r.file(), reg) + " still being written"));
                    }
                    if (readerSb[f][reg] >= 0) {
                        out.add(new Hazard(i, reader[f][reg], HazardKind.WAR, name(r.file(), reg) + " may still be read"));
                    }
                }
            }
            // Effects.
            int wsb = cw.writeSb() < 6 ? cw.writeSb() : -1;
            if (wsb >= 0) {
                if (sbPending[wsb] > 0) {
                    out.add(new Hazard(i, sbLastProducer[wsb], HazardKind.SCOREBOARD_SHARED, "SB" + wsb + " already pending"));
                }
                sbPending[wsb]++;
                sbSet[wsb] = t;
                sbLastProducer[wsb] = i;
            }
            for (RegRange r : in.defs()) {
                for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                    int f = r.file().ordinal();
                    writer[f][reg] = i;
                    writerSb[f][reg] = !c.variable() ? -1 : wsb >= 0 ? wsb : NO_SCOREBOARD;
                    readerSb[f][reg] = -1;
                }
            }
            int rsb = cw.readSb() < 6 ? cw.readSb() : -1;
            if (rsb >= 0) {
                sbPending[rsb]++;
                sbSet[rsb] = t;
                sbLastProducer[rsb] = i;
                for (RegRange r : in.uses()) {
                    for (int reg = r.first(); reg < r.first() + r.count() && !r.isZero(); reg++) {
                        readerSb[r.file().ordinal()][reg] = rsb;
                        reader[r.file().ordinal()][reg] = i;
                    }
                }
            }
            t += Math.max(1, cw.stall());
        }
        return out;
    }

    private void checkRead(int i, RegRange r, int group, long t, int[][] writer, int[][] writerSb, OpClass[] cls,
                           long[] time, List<Hazard> out) {
        if (r.isZero()) {
            return;
        }
        for (int reg = r.first(); reg < r.first() + r.count(); reg++) {
            int f = r.file().ordinal();
            int w = writer[f][reg];
            if (w < 0 || reported(out, i, w)) {
                continue;
            }
            if (cls[w].variable()) {
                if (writerSb[f][reg] >= 0) {
                    out.add(new Hazard(i, w, HazardKind.RAW_SCOREBOARD,
                            name(r.file(), reg) + " read without waiting on SB" + writerSb[f][reg]));
                } else if (writerSb[f][reg] == NO_SCOREBOARD) {
                    out.add(new Hazard(i, w, HazardKind.RAW_SCOREBOARD,
                            name(r.file(), reg) + " read, but its variable-latency producer set no scoreboard"));
                }
            } else {
                int need = model.rawOrDefault(cls[w], r.file(), group);
                if (t - time[w] < need) {
                    out.add(new Hazard(i, w, HazardKind.RAW_STALL,
                            name(r.file(), reg) + " read " + (t - time[w]) + " cycles after its producer, needs " + need));
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

    private static int[] minusOnes(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }
}
