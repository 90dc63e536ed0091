package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
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

    private final Map<Instr, Position> positions;
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
        // sized for the body: growing an identity map rehashes every instruction again
        this.positions = new IdentityHashMap<>(body.instructionCount());
        // counted first, so each register's lists are allocated at their final size (growing them showed)
        int[] useCount = new int[numbers.size()];
        int[] defCount = new int[numbers.size()];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        useCount[numbers.of(r)]++;
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        defCount[numbers.of(r)]++;
                    }
                }
            }
        }
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                positions.put(in, new Position(b.id(), i));
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        add(uses, numbers.of(r), in, useCount);
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        add(defs, numbers.of(r), in, defCount);
                    }
                }
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
        return positions.get(in);
    }

    /** True when {@code a} runs before {@code b} on every path from the entry to {@code b} (or a == b). */
    public boolean dominates(Instr a, Instr b) {
        Position pa = positions.get(a);
        Position pb = positions.get(b);
        if (pa == null || pb == null) {
            return false;
        }
        if (pa.block() == pb.block()) {
            return pa.index() <= pb.index();
        }
        return dominators.dominates(pa.block(), pb.block());
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
        java.util.Set<Integer> parts = new java.util.HashSet<>();
        for (Instr def : d) {
            if (!def.guard().isAlways()) {
                return false;
            }
            for (Reg r : def.dsts()) {
                if (!r.virtual() || numbers.of(r) != k) {
                    continue;
                }
                if (r.isPart()) {
                    if (!parts.add(r.part())) {
                        return false;
                    }
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
        for (Instr u : of(uses, k)) {
            for (Instr def : d) {
                if (u == def || !dominates(def, u)) {
                    return false;
                }
            }
        }
        return true;
    }
}
