package org.jptxas.ori.opt;

/**
 * LOP3 truth tables: bit {@code i} of the table is the result for inputs a = bit 2 of i, b = bit 1, c = bit 0
 * (so a = 0xf0, b = 0xcc, c = 0xaa, as ptxas writes them).
 */
final class Lut {
    static final int A = 0xf0;
    static final int B = 0xcc;
    static final int C = 0xaa;
    private static final int[] VAR = {A, B, C};

    private Lut() {}

    static int input(int slot) {
        return VAR[slot];
    }

    /** The table with the operands in slots {@code x} and {@code y} exchanged. */
    static int swap(int lut, int x, int y) {
        int out = 0;
        for (int i = 0; i < 8; i++) {
            int bx = bit(i, x);
            int by = bit(i, y);
            int j = setBit(setBit(i, x, by), y, bx);
            if ((lut >> i & 1) != 0) {
                out |= 1 << j;
            }
        }
        return out;
    }

    /** The table when the operand in {@code slot} is all zeros or all ones. */
    static int fix(int lut, int slot, boolean value) {
        int out = 0;
        for (int i = 0; i < 8; i++) {
            int j = setBit(i, slot, value ? 1 : 0);
            if ((lut >> j & 1) != 0) {
                out |= 1 << i;
            }
        }
        return out;
    }

    static boolean isIdentity(int lut, int slot) {
        return (lut & 0xff) == VAR[slot];
    }

    /** Evaluates a table on three 8-bit truth vectors (combining tables). */
    static int apply(int lut, int a, int b, int c) {
        int r = 0;
        for (int i = 0; i < 8; i++) {
            if ((lut >> i & 1) != 0) {
                r |= ((i & 4) != 0 ? a : ~a) & ((i & 2) != 0 ? b : ~b) & ((i & 1) != 0 ? c : ~c);
            }
        }
        return r & 0xff;
    }

    private static int bit(int i, int slot) {
        return i >> (2 - slot) & 1;
    }

    private static int setBit(int i, int slot, int v) {
        int mask = 1 << (2 - slot);
        return v != 0 ? i | mask : i & ~mask;
    }
}
