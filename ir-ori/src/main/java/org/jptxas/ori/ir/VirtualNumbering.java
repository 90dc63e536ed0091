package org.jptxas.ori.ir;

import java.util.List;

/**
 * Dense numbers for the virtual registers of one body, every file together, so that analyses index arrays instead
 * of hashing (file, id) pairs. A snapshot: registers created afterwards have no number.
 */
public final class VirtualNumbering {
    private static final RegFile[] FILES = RegFile.values();
    private final int[] base = new int[FILES.length + 1];

    public VirtualNumbering(FunctionBody body) {
        int[] count = new int[FILES.length];
        for (RegFile f : FILES) {
            count[f.ordinal()] = body.virtualCount(f);
        }
        // registers made without newVirtual (tests, rewriters) are numbered too
        // indexed loops: C1-compiled code (the compile server's) allocates an iterator per for-each loop, here three
        // per instruction, and the numbering is built after every pass that changes the body
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                List<Reg> dsts = in.dsts();
                for (int d = 0; d < dsts.size(); d++) {
                    see(dsts.get(d), count);
                }
                List<Reg> used = in.usedRegs();
                for (int u = 0; u < used.size(); u++) {
                    see(used.get(u), count);
                }
            }
        }
        for (int f = 0; f < FILES.length; f++) {
            base[f + 1] = base[f] + count[f];
        }
    }

    private static void see(Reg r, int[] count) {
        if (r.virtual() && r.index() >= count[r.file().ordinal()]) {
            count[r.file().ordinal()] = r.index() + 1;
        }
    }

    /** How many numbers there are: arrays indexed by {@link #of} have this size. */
    public int size() {
        return base[FILES.length];
    }

    /**
     * The number of a virtual register (its components share it); -1 for a physical one, or one made after this
     * numbering.
     */
    public int of(Reg r) {
        int f = r.file().ordinal();
        return r.virtual() && r.index() < base[f + 1] - base[f] ? base[f] + r.index() : -1;
    }
}
