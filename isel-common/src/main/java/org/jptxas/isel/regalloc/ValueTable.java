package org.jptxas.isel.regalloc;

import java.util.BitSet;
import java.util.EnumMap;
import java.util.Map;
import org.jptxas.ori.ir.DefUseVisitor;
import org.jptxas.ori.ir.DefUseWalk;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * The virtual registers of one allocation round, densely keyed exactly as {@code Liveness.key} keys them (files in
 * declaration order, then index): file, tuple size (the widest use), precolouring and spillability.
 */
final class ValueTable {
    private final int[] base = new int[RegFile.values().length];
    private final int[] count = new int[RegFile.values().length];
    private final RegFile[] files;
    private final int[] index;
    private final int[] comps;
    private final int[] fixed;
    private final boolean[] spillable;
    private final boolean[] mentioned;
    private final BitSet returned = new BitSet();
    private final BitSet definedAtEntry = new BitSet();

    /** Per-file state the allocator keeps across rounds, indexed by virtual register number. */
    static final class Constraints {
        final Map<RegFile, Map<Integer, Integer>> fixed = new EnumMap<>(RegFile.class);
        final Map<RegFile, BitSet> unspillable = new EnumMap<>(RegFile.class);
        final Map<RegFile, BitSet> definedAtEntry = new EnumMap<>(RegFile.class);
        /**
         * The precoloured registers a block ending in a return writes (other than by a call): the function's results,
         * read by its caller. Found in the body as it comes to the allocator (null until then), before coalescing
         * can delete the copies into them.
         */
        Map<RegFile, BitSet> returned;

        Constraints() {
            for (RegFile f : RegFile.values()) {
                fixed.put(f, new java.util.HashMap<>());
                unspillable.put(f, new BitSet());
                definedAtEntry.put(f, new BitSet());
            }
        }
    }

    ValueTable(FunctionBody body, Constraints constraints) {
        int offset = 0;
        for (RegFile f : RegFile.values()) {
            base[f.ordinal()] = offset;
            count[f.ordinal()] = body.virtualCount(f);
            offset += body.virtualCount(f);
        }
        files = new RegFile[offset];
        index = new int[offset];
        comps = new int[offset];
        fixed = new int[offset];
        spillable = new boolean[offset];
        mentioned = new boolean[offset];
        for (RegFile f : RegFile.values()) {
            for (int i = 0; i < body.virtualCount(f); i++) {
                int k = base[f.ordinal()] + i;
                files[k] = f;
                index[k] = i;
                fixed[k] = constraints.fixed.get(f).getOrDefault(i, -1);
                spillable[k] = fixed[k] < 0 && !constraints.unspillable.get(f).get(i);
                if (constraints.definedAtEntry.get(f).get(i)) {
                    definedAtEntry.set(k);
                }
            }
        }
        DefUseWalk.walk(body, new Mentions());
        if (constraints.returned == null) {
            constraints.returned = returnedRegisters(body);
        }
        for (RegFile f : RegFile.values()) {
            BitSet r = constraints.returned.get(f);
            for (int i = r.nextSetBit(0); i >= 0 && i < count[f.ordinal()]; i = r.nextSetBit(i + 1)) {
                if (fixed[base[f.ordinal()] + i] >= 0) {
                    returned.set(base[f.ordinal()] + i);
                }
            }
        }
    }

    /**
     * The registers written in blocks that return, calls left out: the return-value copies the calling convention
     * puts before each RET. A call's clobbers are not results: counted as such, they were live from the entry to
     * every early return, and a return inside a loop kept every register a call clobbers (P0-P6, R0-R15) busy
     * across the loop.
     */
    private static Map<RegFile, BitSet> returnedRegisters(FunctionBody body) {
        Map<RegFile, BitSet> out = new EnumMap<>(RegFile.class);
        for (RegFile f : RegFile.values()) {
            out.put(f, new BitSet());
        }
        for (org.jptxas.ori.ir.BasicBlock b : body.blocks()) {
            Instr last = b.last();
            if (last == null || !last.op().name().equals("RET")) {
                continue;
            }
            for (Instr in : b.instrs()) {
                if (in.op().name().equals("CALL")) {
                    continue;
                }
                for (Reg d : in.dsts()) {
                    if (d.virtual()) {
                        out.get(d.file()).set(d.index());
                    }
                }
            }
        }
        return out;
    }

    /** Marks each register the body mentions and its widest use. */
    private final class Mentions implements DefUseVisitor {
        @Override
        public void def(Instr in, Reg r) {
            note(r);
        }

        @Override
        public void use(Instr in, Reg r) {
            note(r);
        }
    }

    private void note(Reg r) {
        if (r.virtual()) {
            int k = key(r);
            mentioned[k] = true;
            comps[k] = Math.max(comps[k], r.comps());
        }
    }

    /** A virtual register that existed when the table was made. */
    boolean contains(Reg r) {
        return r.virtual() && r.index() < count[r.file().ordinal()];
    }

    int key(Reg r) {
        return base[r.file().ordinal()] + r.index();
    }

    int size() {
        return files.length;
    }

    RegFile file(int key) {
        return files[key];
    }

    int index(int key) {
        return index[key];
    }

    int comps(int key) {
        return comps[key];
    }

    int fixed(int key) {
        return fixed[key];
    }

    boolean spillable(int key) {
        return spillable[key];
    }

    /** A precoloured register that holds one of the function's results at its returns. */
    boolean returned(int key) {
        return returned.get(key);
    }

    boolean mentioned(int key) {
        return mentioned[key];
    }

    BitSet definedAtEntry() {
        return definedAtEntry;
    }
}
