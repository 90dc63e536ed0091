package org.jptxas.scheduler.control;

/**
 * A bit per register of one file, in a {@code long[]} of {@link #words} words: the sets {@link IssueState} keeps per
 * file. Static and small enough for C1 (the launchers' only compiler) to inline.
 */
final class RegisterBits {
    private RegisterBits() {}

    /** Words for {@code registers} bits. */
    static long[] words(int registers) {
        return new long[(registers + 63) >>> 6];
    }

    static void set(long[] bits, int r) {
        bits[r >>> 6] |= 1L << r;
    }

    static void clear(long[] bits, int r) {
        bits[r >>> 6] &= ~(1L << r);
    }

    /** Adds the bits of {@code from} (of the same length) to {@code into}. */
    static void addAll(long[] into, long[] from) {
        for (int w = 0; w < into.length; w++) {
            into[w] |= from[w];
        }
    }

    /** The first set bit from {@code from} on, or -1. */
    static int next(long[] bits, int from) {
        int w = from >>> 6;
        if (w >= bits.length) {
            return -1;
        }
        long word = bits[w] & -1L << from;
        while (word == 0) {
            if (++w == bits.length) {
                return -1;
            }
            word = bits[w];
        }
        return (w << 6) + Long.numberOfTrailingZeros(word);
    }
}
