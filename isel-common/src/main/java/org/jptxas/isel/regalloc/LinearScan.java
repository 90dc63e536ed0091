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
    /** Per register, every interval ever placed over it (stale entries are skipped by checking {@code reg}). */
    private final List<RegisterOccupants> placed = new ArrayList<>();
    /**
     * Per register unit, a count raised whenever what {@link #freeForWhole} sees there may change: an interval
     * placed over it, or one with an entry there moving in or out. The counts only grow, so an unchanged sum over
     * an interval's units means an unchanged answer.
     */
    private final int[] unitVersion;
    /**
     * Per interval key (made when it first has to move aside), per register: {@code 2 * (version sum + 1)} plus 1
     * when free, from the last {@link #freeForWhole} answer there; 0 when never asked. The second-chance search
     * asks the same intervals about the same registers for interval after interval, and little changes between.
     * Each array covers the registers below {@link #high} (the only ones asked about) and grows with it: sized for
     * the whole register file, they were 1 KiB per interval that ever moved aside.
     */
    private final int[][] freeAnswers;
    /** Per interval key: {@link #rememberedTarget}'s registers, valid while {@link #releases} is unchanged. */
    private final FreeTargets[] freeTargets;
    /**
     * How many times an interval has left a register for good (moved aside for another, or evicted): only then can
     * a register where an interval did not fit become one where it fits.
     */
    private int releases;

    private LinearScan(RegFile file, boolean[] allowed, LiveInterval[] all, int[][] hints, BitSet spilled) {
        this.file = file;
        this.allowed = allowed;
        this.all = all;
        this.hints = hints;
        this.spilled = spilled;
        this.unitVersion = new int[allowed.length];
        this.freeAnswers = new int[all.length][];
        this.freeTargets = new FreeTargets[all.length];
    }

    /** Records that what {@link #freeForWhole} sees on {@code comps} units from {@code reg} may have changed. */
    private void touch(int reg, int comps) {
        for (int u = Math.max(reg, 0); u < Math.min(reg + comps, unitVersion.length); u++) {
            unitVersion[u]++;
        }
    }

    /** {@link #freeForWhole}, answered from the last answer when nothing changed on its units since. */
    private boolean freeForWholeRemembered(LiveInterval iv, int reg) {
        if (reg < 0 || reg + iv.comps > unitVersion.length) {
            return freeForWhole(iv, reg);
        }
        int[] answers = freeAnswers[iv.key];
        if (answers == null || answers.length <= reg) {
            int size = Math.max(reg + 1, Math.min(high, unitVersion.length));
            answers = answers == null ? new int[size] : Arrays.copyOf(answers, size);
            freeAnswers[iv.key] = answers;
        }
        int sum = 1;
        for (int u = reg; u < reg + iv.comps; u++) {
            sum += unitVersion[u];
        }
        int known = answers[reg];
        if (known >>> 1 == sum) {
            return (known & 1) != 0;
        }
        boolean free = freeForWhole(iv, reg);
        answers[reg] = sum << 1 | (free ? 1 : 0);
        return free;
    }

    private void recordAt(LiveInterval iv, int reg) {
        while (placed.size() < reg + iv.comps) {
            placed.add(new RegisterOccupants());
        }
        for (int c = 0; c < iv.comps; c++) {
            placed.get(reg + c).add(iv);
        }
        touch(reg, iv.comps);
    }

    /** Whether {@code iv} could sit at {@code reg} for its whole lifetime, given everything placed so far. */
    private boolean freeForWhole(LiveInterval iv, int reg) {
        if (reg % alignment(iv.comps) != 0 || reg + iv.comps > allowed.length || reg + iv.comps - 1 > iv.highest) {
            return false;
        }
        for (int u = reg; u < reg + iv.comps; u++) {
            if (!allowed[u]) {
                return false;
            }
            if (u < placed.size() && placed.get(u).anyOverlapAt(iv, u)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Second chance before raising the register count: find an aligned place below {@code high} whose occupants
     * (among {@code conflicts}; none fixed) can each move to another register below {@code high} that is free for
     * their whole lifetime; move them and return the place, else -1.
     */
    private int makeRoom(LiveInterval cur, List<LiveInterval> conflicts) {
        int[] byUnit = conflictsByUnit(conflicts);
        int align = alignment(cur.comps);
        int[] movers = new int[3];
        for (int b = 0; b + cur.comps <= high; b += align) {
            boolean ok = b + cur.comps - 1 <= cur.highest;
            for (int c = 0; c < cur.comps && ok; c++) {
                ok = allowed[b + c];
            }
            int count = ok ? moversAt(b, cur.comps, byUnit, conflicts, movers) : 0;
            if (count == 0) {
                continue;
            }
            int[] old = new int[count];
            int moved = 0;
            for (int i = 0; i < count; i++) {
                LiveInterval m = conflicts.get(movers[i]);
                old[moved] = m.reg;
                // while an earlier mover has left its register only for a trial, that register looks free to this
                // one, which the remembered targets (taken with it there) would not say
                int target = moved == 0 ? rememberedTarget(m, b, cur.comps) : firstTarget(m, b, cur.comps);
                if (target < 0) {
                    break;
                }
                touch(m.reg, m.comps);
                m.reg = target;
                recordAt(m, target);
                moved++;
            }
            if (moved == count) {
                releases++;
                return b;
            }
            for (int i = 0; i < moved; i++) {
                LiveInterval m = conflicts.get(movers[i]);
                touch(m.reg, m.comps);
                m.reg = old[i];
                touch(m.reg, m.comps);
            }
        }
        return -1;
    }

    /**
     * The conflicts over each register unit below {@code high}, as indices into {@code conflicts} in list order:
     * unit {@code u}'s run is {@code [table[u], table[u + 1])}, among the entries after the {@code high + 1} offsets.
     * Built once per {@link #makeRoom} call, so that each place looks at its own units' occupants instead of every
     * conflict.
     */
    private int[] conflictsByUnit(List<LiveInterval> conflicts) {
        int[] counts = new int[high + 1];
        int entries = 0;
        for (int i = 0; i < conflicts.size(); i++) {
            LiveInterval it = conflicts.get(i);
            for (int u = Math.max(it.reg, 0); u < Math.min(it.reg + it.comps, high) && it.reg >= 0; u++) {
                counts[u + 1]++;
                entries++;
            }
        }
        int[] table = new int[high + 1 + entries];
        int at = high + 1;
        for (int u = 0; u <= high; u++) {
            at += counts[u];
            table[u] = at;
        }
        int[] fill = Arrays.copyOf(table, high);
        for (int i = 0; i < conflicts.size(); i++) {
            LiveInterval it = conflicts.get(i);
            for (int u = Math.max(it.reg, 0); u < Math.min(it.reg + it.comps, high) && it.reg >= 0; u++) {
                table[fill[u]++] = i;
            }
        }
        return table;
    }

    /**
     * The conflicts over units {@code [b, b + comps)}, distinct, in list order, into {@code movers}; how many, or 0
     * when one of them is fixed or there are more than two (the place is not worth trying).
     */
    private static int moversAt(int b, int comps, int[] byUnit, List<LiveInterval> conflicts, int[] movers) {
        int count = 0;
        for (int u = b; u < b + comps; u++) {
            for (int e = byUnit[u]; e < byUnit[u + 1]; e++) {
                int index = byUnit[e];
                if (conflicts.get(index).fixed >= 0) {
                    return 0;
                }
                int k = 0;
                while (k < count && movers[k] != index) {
                    k++;
                }
                if (k == count) {
                    if (count == 2) {
                        return 0;
                    }
                    movers[count++] = index;
                }
            }
        }
        if (count == 2 && movers[0] > movers[1]) {
            int t = movers[0];
            movers[0] = movers[1];
            movers[1] = t;
        }
        return count;
    }

    /**
     * The lowest register below {@code high} other than its own where {@code m} is free for its whole lifetime and
     * that stays clear of {@code [b, b + comps)}; -1 when there is none.
     */
    private int firstTarget(LiveInterval m, int b, int comps) {
        for (int r = 0; r + m.comps <= high; r += alignment(m.comps)) {
            boolean clear = r + m.comps <= b || r >= b + comps;
            if (clear && r != m.reg && freeForWholeRemembered(m, r)) {
                return r;
            }
        }
        return -1;
    }

    /**
     * {@link #firstTarget}, looking only at the registers that were free for {@code m} when last asked (then
     * everything below {@code high} not seen yet): a register where {@code m} does not fit stays so until an
     * interval leaves a register ({@link #releases}), and the second-chance search asks about the same long-lived
     * intervals place after place, interval after interval, nearly always in vain.
     */
    private int rememberedTarget(LiveInterval m, int b, int comps) {
        FreeTargets known = freeTargets[m.key];
        if (known == null || known.releases != releases) {
            known = new FreeTargets(releases);
            freeTargets[m.key] = known;
        }
        int align = alignment(m.comps);
        for (int r = known.next; r + m.comps <= high; r += align) {
            if (freeForWholeRemembered(m, r)) {
                known.add(r);
            }
            known.next = r + align;
        }
        int kept = 0;
        int found = -1;
        for (int i = 0; i < known.size; i++) {
            int r = known.regs[i];
            boolean clear = r + m.comps <= b || r >= b + comps;
            if (found < 0 && clear && r != m.reg) {
                if (!freeForWholeRemembered(m, r)) {
                    continue; // taken since: stays taken until a release, which starts the list over
                }
                found = r;
            }
            known.regs[kept++] = r;
        }
        known.size = kept;
        return found;
    }

    /** The registers an interval was free for when last asked (ascending), and up to where it was asked. */
    private static final class FreeTargets {
        final int releases;
        int[] regs = new int[4];
        int size;
        int next;

        FreeTargets(int releases) {
            this.releases = releases;
        }

        void add(int r) {
            if (size == regs.length) {
                regs = Arrays.copyOf(regs, size * 2);
            }
            regs[size++] = r;
        }
    }

    /**
     * Tuple alignment: pairs even, three- and four-component tuples on multiples of four, five to eight (the uniform
     * operand blocks of UTMALDG/UTMASTG.3D..5D, which ptxas places at UR8, UR16, ...) on multiples of eight, larger
     * ones (DMMA.16x8x16's A) on multiples of sixteen.
     */
    static int alignment(int comps) {
        return comps == 1 ? 1 : comps == 2 ? 2 : comps <= 4 ? 4 : comps <= 8 ? 8 : 16;
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
                recordAt(iv, iv.fixed);
                // the function uses the fixed register anyway: a value tied to it by a copy costs no new register
                high = Math.max(high, iv.fixed + iv.comps);
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
                    freeAnswers[it.key] = null; // ended: never asked to move again
                    freeTargets[it.key] = null;
                } else if (!it.covers(pos)) {
                    removeAt(active, i);
                    inactive.add(it);
                }
            }
            for (int i = inactive.size() - 1; i >= 0; i--) {
                LiveInterval it = inactive.get(i);
                if (it.end() <= pos) {
                    removeAt(inactive, i);
                    freeAnswers[it.key] = null;
                    freeTargets[it.key] = null;
                } else if (it.covers(pos)) {
                    removeAt(inactive, i);
                    active.add(it);
                }
            }
            cur.covers(pos);
            Arrays.fill(blocked, false);
            conflicts.clear();
            // indexed loops: under C1 a for-each allocates an iterator, here two per interval allocated
            for (int i = 0; i < active.size(); i++) {
                LiveInterval it = active.get(i);
                block(blocked, it);
                conflicts.add(it);
            }
            for (int i = 0; i < inactive.size(); i++) {
                LiveInterval it = inactive.get(i);
                if (it.intersects(cur)) {
                    block(blocked, it);
                    conflicts.add(it);
                }
            }
            int reg = choose(cur, blocked);
            if (reg >= 0 && reg + cur.comps > high) {
                // Taking a new register raises the count: first try to make room below by moving others.
                int made = makeRoom(cur, conflicts);
                if (made >= 0) {
                    reg = made;
                }
            }
            if (reg >= 0) {
                recordAt(cur, reg);
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
                if (h != null && h.reg >= 0 && fits(h.reg, cur, blocked)) {
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
                if (fits(r, cur, blocked) && buddy + align <= allowed.length
                        && !fits(buddy, cur, blocked) && r / span == buddy / span) {
                    return r;
                }
            }
        }
        for (int r = 0; r + cur.comps <= allowed.length; r += align) {
            if (fits(r, cur, blocked)) {
                return r;
            }
        }
        return -1;
    }

    private boolean fits(int reg, LiveInterval cur, boolean[] blocked) {
        int comps = cur.comps;
        if (reg % alignment(comps) != 0 || reg + comps > allowed.length || reg + comps - 1 > cur.highest) {
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
            boolean ok = r + cur.comps - 1 <= cur.highest;
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
                touch(it.reg, it.comps);
                releases++;
                it.reg = -1;
                victims.add(it);
            }
        }
        cur.reg = bestReg;
        return victims.toArray(new LiveInterval[0]);
    }
}
