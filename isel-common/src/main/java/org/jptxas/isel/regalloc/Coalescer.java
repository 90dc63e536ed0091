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
 * nowhere but at the copy itself, where both hold the same value. The copies are deleted. Precoloured registers
 * are left to the allocator's hints, so that no fixed register is stretched over another's.
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
            if (di == null || si == null || di.isEmpty() || si.isEmpty() || di.fixed >= 0 || si.fixed >= 0
                    || di.comps != si.comps || !di.spillable || !si.spillable
                    || !di.overlapsOnlyWithin(si, c.lo(), c.hi())) {
                continue;
            }
            // Keep the lower key as the name, so the result does not depend on copy direction.
            int keep = Math.min(d, s);
            int gone = Math.max(d, s);
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
                if (part == null || part[0].part() != 0) {
                    continue;
                }
                int comps = part[0].comps();
                List<Instr> group = new ArrayList<>(List.of(in));
                for (int p = 1; p < comps && i + p < instrs.size(); p++) {
                    Reg[] next = partCopy(instrs.get(i + p));
                    if (next == null || next[0].part() != p || next[0].index() != part[0].index()
                            || next[1].index() != part[1].index()) {
                        break;
                    }
                    group.add(instrs.get(i + p));
                }
                if (group.size() == comps) {
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
