package org.jptxas.ori.analysis;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.DefUseVisitor;
import org.jptxas.ori.ir.DefUseWalk;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.VirtualNumbering;

/**
 * The SSA-like part of a non-SSA function body: virtual registers written by exactly one unguarded instruction
 * whose definition dominates every use. Such a register holds one value wherever it is read, so passes may
 * substitute it, merge it or fold it as in SSA. Also answers instruction-level dominance. A snapshot: rebuild
 * after rewriting.
 */
public final class SingleDefs {
    /** Where an instruction sits: block id and index in the block. */
    public record Position(int block, int index) {}

    private final InstrPositions positions;
    private final VirtualNumbering numbers;
    private final ByRegister defs;
    private final ByRegister uses;
    /** Per register number: 0 not computed yet, 1 stable, -1 not. */
    private final byte[] ssa;
    private final Dominators dominators;
    private final Cfg cfg;

    public SingleDefs(FunctionBody body) {
        this.cfg = Cfg.of(body);
        this.dominators = new Dominators(cfg);
        this.positions = new InstrPositions(body.instructionCount());
        // one walk records every virtual definition and use and finds the numbering's range; the lists are then
        // filled by register at their final sizes (a walk to number, one to count and one to fill cost three)
        Occurrences occurrences = new Occurrences(positions, body.instructionCount());
        DefUseWalk.walk(body, occurrences);
        this.numbers = new VirtualNumbering(body, occurrences.seen);
        this.defs = occurrences.defs.byRegister(numbers);
        this.uses = occurrences.uses.byRegister(numbers);
        this.ssa = new byte[numbers.size()];
    }

    /** The one walk: the positions, and each virtual definition and use in body order. */
    private static final class Occurrences implements DefUseVisitor {
        final InstrPositions positions;
        final int[] seen = VirtualNumbering.newCounts();
        final Mentions defs;
        final Mentions uses;

        Occurrences(InstrPositions positions, int instructions) {
            this.positions = positions;
            this.defs = new Mentions(instructions + 16);
            this.uses = new Mentions(2 * instructions + 16);
        }

        @Override
        public void instr(BasicBlock block, int index, Instr in) {
            positions.put(in, block.id(), index);
        }

        @Override
        public void def(Instr in, Reg r) {
            if (r.virtual()) {
                VirtualNumbering.see(r, seen);
                defs.add(in, r);
            }
        }

        @Override
        public void use(Instr in, Reg r) {
            if (r.virtual()) {
                VirtualNumbering.see(r, seen);
                uses.add(in, r);
            }
        }
    }

    /** Instructions with the register each mentions, in walk order, in arrays grown as needed. */
    private static final class Mentions {
        private Instr[] instrs;
        private Reg[] regs;
        private int size;

        Mentions(int capacity) {
            instrs = new Instr[capacity];
            regs = new Reg[capacity];
        }

        void add(Instr in, Reg r) {
            if (size == instrs.length) {
                instrs = java.util.Arrays.copyOf(instrs, 2 * size);
                regs = java.util.Arrays.copyOf(regs, 2 * size);
            }
            instrs[size] = in;
            regs[size++] = r;
        }

        /** The instructions grouped by register number, in walk order within each register. */
        ByRegister byRegister(VirtualNumbering numbers) {
            int n = numbers.size();
            int[] number = new int[size];
            int[] start = new int[n + 1];
            for (int i = 0; i < size; i++) {
                number[i] = numbers.of(regs[i]);
                start[number[i] + 1]++;
            }
            for (int k = 0; k < n; k++) {
                start[k + 1] += start[k];
            }
            int[] fill = java.util.Arrays.copyOf(start, n);
            Instr[] grouped = new Instr[size];
            for (int i = 0; i < size; i++) {
                grouped[fill[number[i]]++] = instrs[i];
            }
            return new ByRegister(grouped, start);
        }
    }

    /**
     * Per register number, its instructions: one array grouped by register, and a list view made for a register
     * when first asked about (a list per register, made for every register at each rebuild, was most of this
     * analysis's allocation; the passes ask about a fraction of them).
     */
    private static final class ByRegister {
        private final Instr[] instrs;
        private final int[] start;
        private final List<Instr>[] views;

        @SuppressWarnings("unchecked")
        ByRegister(Instr[] instrs, int[] start) {
            this.instrs = instrs;
            this.start = start;
            this.views = new List[start.length - 1];
        }

        /** The list of register number {@code k}, empty for registers made after this snapshot. */
        List<Instr> of(int k) {
            if (k < 0 || k >= views.length || start[k] == start[k + 1]) {
                return List.of();
            }
            List<Instr> v = views[k];
            if (v == null) {
                v = new Slice(instrs, start[k], start[k + 1]);
                views[k] = v;
            }
            return v;
        }
    }

    /** An unmodifiable view of {@code [from, to)} of an array. */
    private static final class Slice extends java.util.AbstractList<Instr> implements java.util.RandomAccess {
        private final Instr[] a;
        private final int from;
        private final int size;

        Slice(Instr[] a, int from, int to) {
            this.a = a;
            this.from = from;
            this.size = to - from;
        }

        @Override
        public Instr get(int i) {
            java.util.Objects.checkIndex(i, size);
            return a[from + i];
        }

        @Override
        public int size() {
            return size;
        }
    }

    public Cfg cfg() {
        return cfg;
    }

    public Dominators dominators() {
        return dominators;
    }

    /** The position of an instruction of the body, or null if it was not in the body when this was built. */
    public Position position(Instr in) {
        long p = positions.get(in);
        return p < 0 ? null : new Position(InstrPositions.block(p), InstrPositions.index(p));
    }

    /** True when {@code a} runs before {@code b} on every path from the entry to {@code b} (or a == b). */
    public boolean dominates(Instr a, Instr b) {
        long pa = positions.get(a);
        long pb = positions.get(b);
        if (pa < 0 || pb < 0) {
            return false;
        }
        int ba = InstrPositions.block(pa);
        int bb = InstrPositions.block(pb);
        if (ba == bb) {
            return InstrPositions.index(pa) <= InstrPositions.index(pb);
        }
        return dominators.dominates(ba, bb);
    }

    public List<Instr> defs(Reg r) {
        return r.virtual() ? defs.of(numbers.of(r)) : List.of();
    }

    public List<Instr> uses(Reg r) {
        return r.virtual() ? uses.of(numbers.of(r)) : List.of();
    }

    /**
     * The one instruction defining {@code r} when {@code r} is SSA-like: virtual, written by one unguarded
     * instruction, and that write dominates every read. Null otherwise.
     */
    public Instr soleDef(Reg r) {
        return stable(r) && defs(r).size() == 1 ? defs(r).get(0) : null;
    }

    /**
     * The one write of {@code r} when it is stable: its sole definition, or for a 32-bit part of a value built as
     * {@code .lo} and {@code .hi}, the one instruction writing that part. Null otherwise.
     */
    public Instr soleWrite(Reg r) {
        if (!stable(r)) {
            return null;
        }
        Instr only = null;
        for (Instr d : defs(r)) {
            if (d.dsts().contains(r)) {
                if (only != null) {
                    return null;
                }
                only = d;
            }
        }
        return only;
    }

    /**
     * True when {@code r} holds one value wherever it is read: virtual, every write unguarded, either one write of
     * the whole register or one write per part (a 64-bit value built as {@code .lo} and {@code .hi}), and every
     * write dominates every read.
     */
    public boolean stable(Reg r) {
        if (!r.virtual()) {
            return false;
        }
        int k = numbers.of(r);
        if (k < 0) {
            return false;
        }
        if (ssa[k] == 0) {
            ssa[k] = (byte) (computeStable(k) ? 1 : -1);
        }
        return ssa[k] > 0;
    }

    private boolean computeStable(int k) {
        List<Instr> d = defs.of(k);
        if (d.isEmpty()) {
            return false;
        }
        boolean whole = false;
        // the parts written, one bit each (a tuple has a handful of components; a set of boxed parts per register
        // showed in the profile)
        java.util.BitSet parts = new java.util.BitSet();
        for (int di = 0; di < d.size(); di++) {
            Instr def = d.get(di);
            if (!def.guard().isAlways()) {
                return false;
            }
            List<Reg> dsts = def.dsts();
            for (int s = 0; s < dsts.size(); s++) {
                Reg r = dsts.get(s);
                if (!r.virtual() || numbers.of(r) != k) {
                    continue;
                }
                if (r.isPart()) {
                    if (parts.get(r.part())) {
                        return false;
                    }
                    parts.set(r.part());
                } else {
                    if (whole) {
                        return false;
                    }
                    whole = true;
                }
            }
        }
        if (whole && (!parts.isEmpty() || d.size() != 1)) {
            return false;
        }
        List<Instr> us = uses.of(k);
        for (int ui = 0; ui < us.size(); ui++) {
            Instr u = us.get(ui);
            for (int di = 0; di < d.size(); di++) {
                Instr def = d.get(di);
                if (u == def || !dominates(def, u)) {
                    return false;
                }
            }
        }
        return true;
    }
}
