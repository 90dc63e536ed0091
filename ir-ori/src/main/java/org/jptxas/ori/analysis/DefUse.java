package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/** Definitions and uses of each virtual register, keyed by (file, id); a snapshot, rebuilt after rewriting. */
public final class DefUse {
    /** Where a register is defined or used: the block and the instruction. */
    public record Site(BasicBlock block, Instr instr) {}

    private record Key(org.jptxas.ori.ir.RegFile file, int id) {}

    private final Map<Key, List<Site>> defs = new HashMap<>();
    private final Map<Key, List<Site>> uses = new HashMap<>();

    public DefUse(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        uses.computeIfAbsent(new Key(r.file(), r.index()), k -> new ArrayList<>()).add(new Site(b, in));
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        defs.computeIfAbsent(new Key(r.file(), r.index()), k -> new ArrayList<>()).add(new Site(b, in));
                    }
                }
            }
        }
    }

    public List<Site> defs(Reg r) {
        return Collections.unmodifiableList(defs.getOrDefault(new Key(r.file(), r.index()), List.of()));
    }

    public List<Site> uses(Reg r) {
        return Collections.unmodifiableList(uses.getOrDefault(new Key(r.file(), r.index()), List.of()));
    }

    /** Exactly one definition: the register is in SSA form. */
    public boolean singleDef(Reg r) {
        return defs(r).size() == 1;
    }
}
