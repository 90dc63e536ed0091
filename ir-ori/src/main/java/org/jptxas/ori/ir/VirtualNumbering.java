package org.jptxas.ori.ir;

/**
 * Dense numbers for the virtual registers of one body, every file together, so that analyses index arrays instead
 * of hashing (file, id) pairs. A snapshot: registers created afterwards have no number.
 */
public final class VirtualNumbering {
    private static final RegFile[] FILES = RegFile.values();
    private final int[] base = new int[FILES.length + 1];

    public VirtualNumbering(FunctionBody body) {
        int[] count = new int[FILES.length];
        // registers made without newVirtual (tests, rewriters) are numbered too
        // a visitor of its own: a lambda behind a visitor cost two interface calls per operand under C1
        DefUseWalk.walk(body, new DefUseVisitor() {
            @Override
            public void def(Instr in, Reg r) {
                see(r, count);
            }

            @Override
            public void use(Instr in, Reg r) {
                see(r, count);
            }
        });
        number(body, count);
    }

    /**
     * The numbering of a body whose instructions an analysis has already walked, gathering with {@link #see} per
     * file one more than the highest virtual index named: the same numbering, without a walk of its own.
     */
    public VirtualNumbering(FunctionBody body, int[] seen) {
        number(body, seen.clone());
    }

    private void number(FunctionBody body, int[] count) {
        for (RegFile f : FILES) {
            count[f.ordinal()] = Math.max(count[f.ordinal()], body.virtualCount(f));
        }
        for (int f = 0; f < FILES.length; f++) {
            base[f + 1] = base[f] + count[f];
        }
    }

    /** The per-file counts {@link #see} raises, all zero: one entry per register file, by ordinal. */
    public static int[] newCounts() {
        return new int[FILES.length];
    }

    /** Raises the file's count past the index of {@code r} when it is a virtual register beyond it. */
    public static void see(Reg r, int[] count) {
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
