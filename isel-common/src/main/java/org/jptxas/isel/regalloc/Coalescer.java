package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/**
 * Aggressive copy coalescing before allocation: a register copied from another ({@code MOV d, s}, or a tuple copied
 * part by part, {@code MOV d.lo, s.lo; MOV d.hi, s.hi}) becomes that register when their live intervals overlap
 * nowhere but at the copy itself, where both hold the same value. The copies are deleted. A copy to or from a
 * precoloured register (the calling convention's arguments and results) merges the value into that fixed register
 * when no other fixed register over the same units is live where the value is, so that no fixed register is
 * stretched over another's.
 */
final class Coalescer {
    private Coalescer() {}

    /** A copy of whole register {@code src} into {@code dst}, made by {@code instrs} (one, or one per part). */
    private record Copy(Reg dst, Reg src, List<Instr> instrs, int lo, int hi) {}

    /** Coalesces what it can; returns the number of copy instructions deleted. */
    static int run(FunctionBody body, ValueTable values, LiveInterval[] intervals) {
        int[] leader = new int[values.size()];
        for (int k = 0; k < leader.length; k++) {
            leader[k] = k;
        }
        List<Copy> copies = findCopies(body);
        // the copies between each two registers (either way): where one of them copies the other, the two may overlap
        java.util.Map<Long, List<Copy>> between = new java.util.HashMap<>();
        for (Copy c : copies) {
            between.computeIfAbsent(pairKey(values.key(c.dst()), values.key(c.src())), k -> new ArrayList<>()).add(c);
        }
        List<Instr> deleted = new ArrayList<>();
        for (Copy c : copies) {
            int d = find(leader, values.key(c.dst()));
            int s = find(leader, values.key(c.src()));
            LiveInterval di = intervals[d];
            LiveInterval si = intervals[s];
            if (d == s) {
                deleted.addAll(c.instrs());
                continue;
            }
            if (di == null || si == null || di.isEmpty() || si.isEmpty() || di.fixed >= 0 && si.fixed >= 0
                    || di.comps != si.comps
                    || !overlapsOnlyAtCopies(di, si, between.get(pairKey(values.key(c.dst()), values.key(c.src()))))) {
                continue;
            }
            boolean toFixed = di.fixed >= 0 || si.fixed >= 0;
            if (toFixed ? !(di.fixed >= 0 ? si : di).spillable || fixedElsewhere(di.fixed >= 0 ? di : si,
                    di.fixed >= 0 ? si : di, intervals) : !di.spillable || !si.spillable) {
                continue;
            }
            // Keep the fixed register, else the lower key as the name, so the result does not depend on copy
            // direction.
            int keep = toFixed ? (di.fixed >= 0 ? d : s) : Math.min(d, s);
            int gone = keep == d ? s : d;
            intervals[keep].absorb(intervals[gone]);
            intervals[gone] = null;
            leader[gone] = keep;
            deleted.addAll(c.instrs());
        }
        if (deleted.isEmpty()) {
            return 0;
        }
        java.util.Set<Instr> dead = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        dead.addAll(deleted);
        for (BasicBlock b : body.blocks()) {
            b.instrs().removeIf(dead::contains);
            for (Instr in : b.instrs()) {
                RegOperands.mapUses(in, r -> renamed(r, values, leader));
                RegOperands.mapDefs(in, r -> renamed(r, values, leader));
            }
        }
        return dead.size();
    }

    /**
     * Whether another fixed register sharing a unit with {@code fixed} is live where {@code value} is: merging
     * {@code value} into {@code fixed} would stretch one fixed register over another's.
     */
    private static boolean fixedElsewhere(LiveInterval fixed, LiveInterval value, LiveInterval[] intervals) {
        for (LiveInterval other : intervals) {
            if (other != null && other != fixed && other.fixed >= 0 && other.file == fixed.file && !other.isEmpty()
                    && other.fixed < fixed.fixed + fixed.comps && fixed.fixed < other.fixed + other.comps
                    && other.intersects(value)) {
                return true;
            }
        }
        return false;
    }

    /** Both orders of two register keys as one map key. */
    private static long pairKey(int a, int b) {
        return (long) Math.min(a, b) << 32 | Math.max(a, b);
    }

    /**
     * Whether {@code a} and {@code b} overlap only where one copies the other: there both hold the same value (an
     * argument copied into the convention's register and back out of it, say), and merged, those copies vanish.
     */
    private static boolean overlapsOnlyAtCopies(LiveInterval a, LiveInterval b, List<Copy> copies) {
        int[] lo = new int[copies.size()];
        int[] hi = new int[copies.size()];
        for (int k = 0; k < lo.length; k++) {
            lo[k] = copies.get(k).lo();
            hi[k] = copies.get(k).hi();
        }
        return a.overlapsOnlyWithin(b, lo, hi);
    }

    private static int find(int[] leader, int k) {
        while (leader[k] != k) {
            leader[k] = leader[leader[k]];
            k = leader[k];
        }
        return k;
    }

    private static Reg renamed(Reg r, ValueTable values, int[] leader) {
        if (!values.contains(r)) {
            return r;
        }
        int k = find(leader, values.key(r));
        if (k == values.key(r)) {
            return r;
        }
        return new Reg(r.file(), values.index(k), r.comps(), true, r.part());
    }

    /** Unguarded whole copies, and complete part-by-part tuple copies in consecutive instructions. */
    private static List<Copy> findCopies(FunctionBody body) {
        List<Copy> copies = new ArrayList<>();
        int base = 0;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                int pos = 2 * (base + i);
                Reg s = RegOperands.copySource(in);
                if (s != null && in.guard().isAlways() && s.virtual() && in.dsts().get(0).virtual()) {
                    copies.add(new Copy(in.dsts().get(0), s, List.of(in), pos, pos + 2));
                    continue;
                }
                Reg[] part = partCopy(in);
                if (part == null) {
                    continue;
                }
                // the parts in any order (the scheduler may have swapped them)
                int comps = part[0].comps();
                List<Instr> group = new ArrayList<>(List.of(in));
                int seen = 1 << part[0].part();
                for (int p = 1; p < comps && i + p < instrs.size(); p++) {
                    Reg[] next = partCopy(instrs.get(i + p));
                    if (next == null || (seen & 1 << next[0].part()) != 0 || next[0].index() != part[0].index()
                            || next[1].index() != part[1].index()) {
                        break;
                    }
                    seen |= 1 << next[0].part();
                    group.add(instrs.get(i + p));
                }
                if (group.size() == comps) {
                    i += comps - 1; // (its other parts start no group of their own)
                    copies.add(new Copy(part[0].whole(), part[1].whole(), group, pos, pos + 2 * comps));
                }
            }
            base += instrs.size();
        }
        return copies;
    }

    /** {@code MOV d.i, s.i} between parts of the same index of two virtual tuples of one size: {d, s}; else null. */
    private static Reg[] partCopy(Instr in) {
        if (!in.op().name().equals("MOV") || !in.mods().isEmpty() || !in.guard().isAlways()
                || in.dsts().size() != 1 || in.srcs().isEmpty() || in.srcs().size() > 2) {
            return null;
        }
        if (in.srcs().size() == 2 && !(in.srcs().get(1).value() instanceof org.jptxas.ori.ir.Imm m
                && (m.bits() & 0xf) == 0xf)) {
            return null;
        }
        Reg d = in.dsts().get(0);
        if (in.srcs().get(0).hasModifiers() || !(in.srcs().get(0).value() instanceof Reg s)) {
            return null;
        }
        if (!d.virtual() || !s.virtual() || !d.isPart() || !s.isPart() || d.part() != s.part()
                || d.comps() != s.comps() || d.file() != s.file()) {
            return null;
        }
        return new Reg[] {d, s};
    }
}
