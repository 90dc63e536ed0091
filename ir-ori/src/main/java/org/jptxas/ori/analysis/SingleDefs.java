package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * The SSA-like part of a non-SSA function body: virtual registers written by exactly one unguarded instruction
 * whose definition dominates every use. Such a register holds one value wherever it is read, so passes may
 * substitute it, merge it or fold it as in SSA. Also answers instruction-level dominance. A snapshot: rebuild
 * after rewriting.
 */
public final class SingleDefs {
    private record Key(RegFile file, int id) {}

    /** Where an instruction sits: block id and index in the block. */
    public record Position(int block, int index) {}

    private final Map<Instr, Position> positions = new IdentityHashMap<>();
    private final Map<Key, List<Instr>> defs = new HashMap<>();
    private final Map<Key, List<Instr>> uses = new HashMap<>();
    private final Map<Key, Boolean> ssa = new HashMap<>();
    private final Dominators dominators;
    private final Cfg cfg;

    public SingleDefs(FunctionBody body) {
        this.cfg = Cfg.of(body);
        this.dominators = new Dominators(cfg);
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                positions.put(in, new Position(b.id(), i));
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        uses.computeIfAbsent(key(r), k -> new ArrayList<>()).add(in);
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        defs.computeIfAbsent(key(r), k -> new ArrayList<>()).add(in);
                    }
                }
            }
        }
    }

    private static Key key(Reg r) {
        return new Key(r.file(), r.index());
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
        return defs.getOrDefault(key(r), List.of());
    }

    public List<Instr> uses(Reg r) {
        return uses.getOrDefault(key(r), List.of());
    }

    /**
     * The one instruction defining {@code r} when {@code r} is SSA-like: virtual, written by one unguarded
     * instruction, and that write dominates every read. Null otherwise.
     */
    public Instr soleDef(Reg r) {
        return stable(r) && defs.get(key(r)).size() == 1 ? defs.get(key(r)).get(0) : null;
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
        return ssa.computeIfAbsent(key(r), this::computeStable);
    }

    private boolean computeStable(Key k) {
        List<Instr> d = defs.get(k);
        if (d == null || d.isEmpty()) {
            return false;
        }
        boolean whole = false;
        java.util.Set<Integer> parts = new java.util.HashSet<>();
        for (Instr def : d) {
            if (!def.guard().isAlways()) {
                return false;
            }
            for (Reg r : def.dsts()) {
                if (!r.virtual() || !key(r).equals(k)) {
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
        for (Instr u : uses.getOrDefault(k, List.of())) {
            for (Instr def : d) {
                if (u == def || !dominates(def, u)) {
                    return false;
                }
            }
        }
        return true;
    }
}
