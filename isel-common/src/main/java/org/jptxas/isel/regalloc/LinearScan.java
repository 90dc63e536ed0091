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
    /** One past the highest register handed out so far. */
    private int high;

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
        List<LiveInterval> conflicts = new ArrayList<>();
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
            conflicts.clear();
            for (LiveInterval it : active) {
                block(blocked, it);
                conflicts.add(it);
            }
            for (LiveInterval it : inactive) {
                if (it.intersects(cur)) {
                    block(blocked, it);
                    conflicts.add(it);
                }
            }
            int reg = choose(cur, blocked);
            if (reg >= 0) {
                high = Math.max(high, reg + cur.comps);
                cur.reg = reg;
                active.add(cur);
                continue;
            }
            LiveInterval[] victims = evictOrSpill(cur, conflicts);
            if (victims != null) {
                for (LiveInterval v : victims) {
                    active.remove(v);
                    inactive.remove(v);
                }
                active.add(cur);
            }
        }
    }

    /** Constant-time removal by moving the last element into the hole (callers walk the lists backwards). */
    private static void removeAt(List<LiveInterval> list, int i) {
        int last = list.size() - 1;
        list.set(i, list.get(last));
        list.remove(last);
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
        if (cur.comps <= 2) {
            // Fill holes first: a register whose aligned buddy (the other half of its pair, or the other pair of
            // its quad) is taken, so that free aligned pairs and quads stay whole for the tuples that need them.
            int span = 2 * align;
            for (int r = 0; r + cur.comps <= Math.min(high, allowed.length); r += align) {
                int buddy = r ^ align;
                if (fits(r, cur.comps, blocked) && buddy + align <= allowed.length
                        && !fits(buddy, cur.comps, blocked) && r / span == buddy / span) {
                    return r;
                }
            }
        }
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

    /**
     * No register is free for {@code cur}: spills it, or evicts the cheapest aligned register's occupants among
     * {@code conflicts} (returned, for removal from the scan's lists) and gives the register to {@code cur}.
     */
    private LiveInterval[] evictOrSpill(LiveInterval cur, List<LiveInterval> conflicts) {
        int units = allowed.length;
        double[] unitCost = new double[units];
        boolean[] pinned = new boolean[units];
        for (LiveInterval it : conflicts) {
            for (int c = 0; c < it.comps && it.reg + c < units; c++) {
                if (it.spillable) {
                    unitCost[it.reg + c] = Math.max(unitCost[it.reg + c], priority(it));
                } else {
                    pinned[it.reg + c] = true;
                }
            }
        }
        int align = alignment(cur.comps);
        int bestReg = -1;
        double bestCost = Double.POSITIVE_INFINITY;
        for (int r = 0; r + cur.comps <= units; r += align) {
            boolean ok = true;
            double cost = 0;
            for (int c = 0; c < cur.comps && ok; c++) {
                ok = allowed[r + c] && !pinned[r + c];
                cost = Math.max(cost, unitCost[r + c]);
            }
            if (ok && cost < bestCost) {
                bestCost = cost;
                bestReg = r;
            }
        }
        if (cur.spillable && (bestReg < 0 || priority(cur) <= bestCost)) {
            spilled.set(cur.key);
            return null;
        }
        if (bestReg < 0) {
            throw new RegisterAllocationException("no " + file.prefix() + " register left for a value that cannot "
                    + "be spilled (" + cur + ")");
        }
        List<LiveInterval> victims = new ArrayList<>();
        for (LiveInterval it : conflicts) {
            if (it.reg < bestReg + cur.comps && it.reg + it.comps > bestReg) {
                spilled.set(it.key);
                it.reg = -1;
                victims.add(it);
            }
        }
        cur.reg = bestReg;
        return victims.toArray(new LiveInterval[0]);
    }
}
