package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import org.jptxas.ori.ir.RegFile;

/**
 * Linear-scan assignment of one register file over intervals with holes (Traub, Holloway and Smith's second-chance
 * binpacking without splitting; Wimmer's active/inactive sets). Each interval takes the lowest aligned register
 * free for its whole lifetime, after first trying the registers of the copies it is tied to, so that the highest
 * register stays low and copies coalesce. When nothing is free, the cheapest of the interval and the intervals
 * in the way (use density weighted by loop depth) is marked for spilling and the caller rewrites and retries.
 */
final class LinearScan {
    private final RegFile file;
    private final boolean[] allowed;
    private final LiveInterval[] all;
    private final int[][] hints;
    private final BitSet spilled;

    private LinearScan(RegFile file, boolean[] allowed, LiveInterval[] all, int[][] hints, BitSet spilled) {
        this.file = file;
        this.allowed = allowed;
        this.all = all;
        this.hints = hints;
        this.spilled = spilled;
    }

    /** Tuple alignment: pairs even, three- and four-component tuples on multiples of four. */
    static int alignment(int comps) {
        return comps == 1 ? 1 : comps == 2 ? 2 : 4;
    }

    /**
     * Assigns {@code reg} of every non-empty interval of {@code file}; the intervals that must be spilled first are
     * added to {@code spilled} instead.
     */
    static void run(RegFile file, boolean[] allowed, LiveInterval[] all, int[][] hints, BitSet spilled) {
        new LinearScan(file, allowed, all, hints, spilled).scan();
    }

    private void scan() {
        List<LiveInterval> unhandled = new ArrayList<>();
        List<LiveInterval> active = new ArrayList<>();
        List<LiveInterval> inactive = new ArrayList<>();
        for (LiveInterval iv : all) {
            if (iv == null || iv.file != file || iv.isEmpty()) {
                continue;
            }
            iv.cursor = 0;
            if (iv.fixed >= 0) {
                iv.reg = iv.fixed;
                inactive.add(iv);
            } else {
                iv.reg = -1;
                unhandled.add(iv);
            }
        }
        unhandled.sort(Comparator.comparingInt(LiveInterval::start).thenComparingInt(iv -> iv.key));
        int units = allowed.length;
        boolean[] blocked = new boolean[units];
        for (LiveInterval cur : unhandled) {
            int pos = cur.start();
            for (int i = active.size() - 1; i >= 0; i--) {
                LiveInterval it = active.get(i);
                if (it.end() <= pos) {
                    removeAt(active, i);
                } else if (!it.covers(pos)) {
                    removeAt(active, i);
                    inactive.add(it);
                }
            }
            for (int i = inactive.size() - 1; i >= 0; i--) {
                LiveInterval it = inactive.get(i);
                if (it.end() <= pos) {
                    removeAt(inactive, i);
                } else if (it.covers(pos)) {
                    removeAt(inactive, i);
                    active.add(it);
                }
            }
            cur.covers(pos);
            Arrays.fill(blocked, false);
            for (LiveInterval it : active) {
                block(blocked, it);
            }
            for (LiveInterval it : inactive) {
                if (it.intersects(cur)) {
                    block(blocked, it);
                }
            }
            int reg = choose(cur, blocked);
            if (reg >= 0) {
                cur.reg = reg;
                active.add(cur);
                continue;
            }
            evictOrSpill(cur, active, inactive);
        }
    }

    /** Order-insensitive removal (lists are scanned whole; determinism comes from the fixed iteration order). */
    private static void removeAt(List<LiveInterval> list, int i) {
        list.remove(i);
    }

    private static void block(boolean[] blocked, LiveInterval it) {
        for (int c = 0; c < it.comps && it.reg + c < blocked.length; c++) {
            blocked[it.reg + c] = true;
        }
    }

    private int choose(LiveInterval cur, boolean[] blocked) {
        int[] partners = hints[cur.key];
        if (partners != null) {
            for (int p : partners) {
                LiveInterval h = all[p];
                if (h != null && h.reg >= 0 && fits(h.reg, cur.comps, blocked)) {
                    return h.reg;
                }
            }
        }
        int align = alignment(cur.comps);
        for (int r = 0; r + cur.comps <= allowed.length; r += align) {
            if (fits(r, cur.comps, blocked)) {
                return r;
            }
        }
        return -1;
    }

    private boolean fits(int reg, int comps, boolean[] blocked) {
        if (reg % alignment(comps) != 0 || reg + comps > allowed.length) {
            return false;
        }
        for (int c = 0; c < comps; c++) {
            if (!allowed[reg + c] || blocked[reg + c]) {
                return false;
            }
        }
        return true;
    }

    /** Spill cost per position covered; rematerializable values cost a quarter (no memory traffic). */
    private static double priority(LiveInterval iv) {
        return iv.weight / Math.max(1, iv.length()) * (iv.rematDef != null ? 0.25 : 1);
    }

    private void evictOrSpill(LiveInterval cur, List<LiveInterval> active, List<LiveInterval> inactive) {
        int align = alignment(cur.comps);
        int bestReg = -1;
        double bestCost = Double.POSITIVE_INFINITY;
        List<LiveInterval> bestVictims = null;
        for (int r = 0; r + cur.comps <= allowed.length; r += align) {
            boolean ok = true;
            for (int c = 0; c < cur.comps; c++) {
                ok &= allowed[r + c];
            }
            if (!ok) {
                continue;
            }
            List<LiveInterval> victims = new ArrayList<>();
            double cost = 0;
            for (List<LiveInterval> list : List.of(active, inactive)) {
                for (LiveInterval it : list) {
                    if (it.reg + it.comps <= r || it.reg >= r + cur.comps
                            || (list == inactive && !it.intersects(cur))) {
                        continue;
                    }
                    if (!it.spillable) {
                        ok = false;
                        break;
                    }
                    victims.add(it);
                    cost = Math.max(cost, priority(it));
                }
                if (!ok) {
                    break;
                }
            }
            if (ok && cost < bestCost) {
                bestCost = cost;
                bestReg = r;
                bestVictims = victims;
            }
        }
        if (cur.spillable && (bestReg < 0 || priority(cur) <= bestCost)) {
            spilled.set(cur.key);
            return;
        }
        if (bestReg < 0) {
            throw new RegisterAllocationException("no " + file.prefix() + " register left for a value that cannot "
                    + "be spilled (" + cur + ")");
        }
        for (LiveInterval v : bestVictims) {
            spilled.set(v.key);
            v.reg = -1;
            active.remove(v);
            inactive.remove(v);
        }
        cur.reg = bestReg;
        active.add(cur);
    }
}
