package org.jptxas.ori.analysis;

import org.jptxas.ori.ir.Instr;

/**
 * Where each instruction of a body sits (block id, index in the block), packed in a long. Recorded on the
 * instruction itself ({@link Instr#markPosition}, keyed by this object), which a lookup reads without hashing; a
 * later numbering of the same instruction by another analysis replaces that record, and for such an instruction
 * (or one not in the body) the lookup falls back to an identity table built, once, from this numbering's own list.
 * Hashing every instruction into the table at each build cost a quarter of {@link SingleDefs}'s construction,
 * rebuilt after every changing pass.
 */
final class InstrPositions {
    /** The key of this numbering's records on the instructions (not this object, which they would keep alive). */
    private final Object owner = new Object();
    private final Instr[] order;
    private final long[] packed;
    private int size;
    /** The identity table, built at the first lookup the instructions' own records cannot answer. */
    private Instr[] keys;
    private long[] positions;
    private int mask;

    InstrPositions(int expected) {
        order = new Instr[expected];
        packed = new long[expected];
    }

    /** Records the position of {@code in}; at most the expected number of instructions are put, each once. */
    void put(Instr in, int block, int index) {
        long p = (long) block << 32 | (index & 0xffffffffL);
        in.markPosition(owner, p);
        order[size] = in;
        packed[size++] = p;
    }

    /** The packed position of {@code in}, or -1 when it was not put. */
    long get(Instr in) {
        long p = in.positionFor(owner);
        if (p >= 0) {
            return p;
        }
        if (keys == null) {
            buildTable();
        }
        int i = slot(in);
        return keys[i] == null ? -1 : positions[i];
    }

    static int block(long position) {
        return (int) (position >>> 32);
    }

    static int index(long position) {
        return (int) position;
    }

    private void buildTable() {
        int capacity = Integer.highestOneBit(Math.max(4, size) * 2 - 1) << 1; // load at most one half
        keys = new Instr[capacity];
        positions = new long[capacity];
        mask = capacity - 1;
        for (int k = 0; k < size; k++) {
            int i = slot(order[k]);
            keys[i] = order[k];
            positions[i] = packed[k];
        }
    }

    /** The slot holding {@code in}, or the empty slot where it would go. */
    private int slot(Instr in) {
        int h = System.identityHashCode(in);
        int i = (h ^ h >>> 16) * 0x9E3779B9 >>> 7 & mask;
        while (keys[i] != null && keys[i] != in) {
            i = i + 1 & mask;
        }
        return i;
    }
}
