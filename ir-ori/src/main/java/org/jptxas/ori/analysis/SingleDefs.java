package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.Collections;
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
    private final List<List<Instr>> defs;
    private final List<List<Instr>> uses;
    /** Per register number: 0 not computed yet, 1 stable, -1 not. */
    private final byte[] ssa;
    private final Dominators dominators;
    private final Cfg cfg;

    public SingleDefs(FunctionBody body) {
        this.cfg = Cfg.of(body);
        this.dominators = new Dominators(cfg);
        this.numbers = new VirtualNumbering(body);
        this.defs = new ArrayList<>(Collections.nCopies(numbers.size(), null));
        this.uses = new ArrayList<>(Collections.nCopies(numbers.size(), null));
        this.ssa = new byte[numbers.size()];
        this.positions = new InstrPositions(body.instructionCount());
        // counted first, so each register's lists are allocated at their final size (growing them showed)
        Counter counter = new Counter(numbers);
        DefUseWalk.walk(body, counter);
        DefUseWalk.walk(body, new Filler(counter));
    }

    /** The first walk: how many times each register number is defined and used. */
    private static final class Counter implements DefUseVisitor {
        final VirtualNumbering numbers;
        final int[] useCount;
        final int[] defCount;

        Counter(VirtualNumbering numbers) {
            this.numbers = numbers;
            this.useCount = new int[numbers.size()];
            this.defCount = new int[numbers.size()];
        }

        @Override
        public void def(Instr in, Reg r) {
            if (r.virtual()) {
                defCount[numbers.of(r)]++;
            }
        }

        @Override
        public void use(Instr in, Reg r) {
            if (r.virtual()) {
                useCount[numbers.of(r)]++;
            }
        }
    }

    /** The second walk: the positions, and the def and use lists at the sizes counted. */
    private final class Filler implements DefUseVisitor {
        private final Counter counts;

        Filler(Counter counts) {
            this.counts = counts;
        }

        @Override
        public void instr(BasicBlock block, int index, Instr in) {
            positions.put(in, block.id(), index);
        }

        @Override
        public void def(Instr in, Reg r) {
            if (r.virtual()) {
                add(defs, numbers.of(r), in, counts.defCount);
            }
        }

        @Override
        public void use(Instr in, Reg r) {
            if (r.virtual()) {
                add(uses, numbers.of(r), in, counts.useCount);
            }
        }
    }

    private static void add(List<List<Instr>> lists, int k, Instr in, int[] count) {
        List<Instr> l = lists.get(k);
        if (l == null) {
            l = new ArrayList<>(count[k]);
            lists.set(k, l);
        }
        l.add(in);
    }

    /** The list of register number {@code k}, empty for registers made after this snapshot. */
    private static List<Instr> of(List<List<Instr>> lists, int k) {
        List<Instr> l = k >= 0 && k < lists.size() ? lists.get(k) : null;
        return l == null ? List.of() : l;
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
        return r.virtual() ? of(defs, numbers.of(r)) : List.of();
    }

    public List<Instr> uses(Reg r) {
        return r.virtual() ? of(uses, numbers.of(r)) : List.of();
    }

    /**
     * The one instruction defining {@code r} when {@code r} is SSA-like: virtual, written by one unguarded
     * instruction, and that write dominates every read. Null otherwise.
     */
    public Instr soleDef(Reg r) {
        return stable(r) && defs(r).size() == 1 ? defs(r).get(0) : null;
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
        List<Instr> d = of(defs, k);
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
        List<Instr> us = of(uses, k);
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
