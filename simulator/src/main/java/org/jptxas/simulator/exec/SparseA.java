package org.jptxas.simulator.exec;

/**
 * Where the stored elements of a 2:4-sparse A ({@code mma.sp}) sit in the full m16 x k matrix, as the project
 * models it (written down here; the PTX ISA's figures are the reference, no hardware checked it).
 *
 * <p>A row of A is cut into chunks of four units; a chunk keeps two of its units, at positions idx0 and idx1 (0..3)
 * given by a 4-bit metadata field ({@code idx0} in the low two bits), and A's registers hold the kept units in order.
 * A unit is one element for 8- and 16-bit types, a pair of elements for 4-bit types (4:8 sparsity), and half an
 * element for tf32 (1:2 sparsity: a kept element is units 0,1 or 2,3, metadata 0b0100 or 0b1110; the element is
 * the one idx0 falls in). The stored half of A is laid out as the dense fragment of the shape with half the k.
 *
 * <p>Metadata: rows g and g + 8 (g = lane / 4) belong to quad g. A row has 4, 8 or 16 chunks; each 32-bit metadata
 * register covers four consecutive chunks of both rows (row g in bits 0..15, row g + 8 in bits 16..31, chunk c at
 * bit 4 (c mod 4)), so one, two or four lanes of the quad hold a quad's metadata; the selector names which: lane
 * 4g + (selector x lanes per set) mod 4 + c / 4. Fields naming one unit twice are undefined in PTX; here the later
 * one wins.
 */
public final class SparseA {
    private SparseA() {}

    /**
     * The column of A (0..k-1) of stored element {@code e} (0..k/2-1) of row {@code row}, for elements of
     * {@code bits} bits, the lanes' metadata {@code meta} and the selector.
     */
    public static int column(int bits, int k, int row, int e, int[] meta, int selector) {
        int unitBits = bits == 4 ? 8 : bits == 32 ? 16 : bits;
        int chunks = k * bits / unitBits / 4;
        int perSet = Math.max(1, chunks / 4);
        if (bits == 32) { // one stored element is two stored units, chunk e
            int[] idx = indices(meta, row, e, chunks, perSet, selector);
            return 2 * e + idx[0] / 2;
        }
        int perUnit = unitBits / bits;
        int unit = e / perUnit, within = e % perUnit;
        int chunk = unit / 2;
        int[] idx = indices(meta, row, chunk, chunks, perSet, selector);
        int fullUnit = 4 * chunk + idx[unit % 2];
        return fullUnit * perUnit + within;
    }

    /** The two 2-bit positions of chunk {@code chunk} of {@code row}. */
    private static int[] indices(int[] meta, int row, int chunk, int chunks, int perSet, int selector) {
        int g = row % 8, half = row / 8;
        int lane = 4 * g + (selector * perSet) % 4 + chunk / 4;
        int field = meta[lane] >>> 16 * half + 4 * (chunk % 4) & 0xf;
        return new int[] {field & 3, field >>> 2 & 3};
    }

    /** The metadata field (4 bits) of {@code row}'s chunk {@code chunk}: the register of which lane, and its shift. */
    public static int[] field(int bits, int k, int row, int chunk, int selector) {
        int unitBits = bits == 4 ? 8 : bits == 32 ? 16 : bits;
        int chunks = k * bits / unitBits / 4;
        int perSet = Math.max(1, chunks / 4);
        return new int[] {4 * (row % 8) + (selector * perSet) % 4 + chunk / 4, 16 * (row / 8) + 4 * (chunk % 4)};
    }
}
