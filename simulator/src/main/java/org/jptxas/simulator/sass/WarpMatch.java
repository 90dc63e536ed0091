package org.jptxas.simulator.sass;

/** MATCH's comparisons of the active lanes' values (32-bit, or 64-bit for .U64, held as longs). */
final class WarpMatch {
    private WarpMatch() {}

    /** MATCH.ALL: whether every active lane of the first {@code count} holds the same value. */
    static boolean allSame(long[] values, int active, int count) {
        int first = Integer.numberOfTrailingZeros(active);
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) != 0 && values[l] != values[first]) {
                return false;
            }
        }
        return true;
    }

    /** MATCH.ANY: the mask of the active lanes holding {@code value}. */
    static int lanesHolding(long[] values, int active, int count, long value) {
        int mask = 0;
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) != 0 && values[l] == value) {
                mask |= 1 << l;
            }
        }
        return mask;
    }
}
