package org.jptxas.ori.analysis;

import org.jptxas.ori.ir.Instr;

/**
 * Where each instruction of a body sits (block id, index in the block), by instruction identity: an open-addressing
 * table of instructions and packed positions, sized once for the body. An identity map of position records cost
 * one record per instruction and most of {@link SingleDefs}'s construction, rebuilt after every changing pass.
 */
final class InstrPositions {
    private final Instr[] keys;
    private final long[] positions;
    private final int mask;

    InstrPositions(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1; // load at most one half
        keys = new Instr[capacity];
        positions = new long[capacity];
        mask = capacity - 1;
    }

    /** Records (or replaces) the position of {@code in}; at most the expected number of instructions are put. */
    void put(Instr in, int block, int index) {
        int i = slot(in);
        keys[i] = in;
        positions[i] = (long) block << 32 | (index & 0xffffffffL);
    }

    /** The packed position of {@code in}, or -1 when it was not put. */
    long get(Instr in) {
        int i = slot(in);
        return keys[i] == null ? -1 : positions[i];
    }

    static int block(long position) {
        return (int) (position >>> 32);
    }

    static int index(long position) {
        return (int) position;
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
