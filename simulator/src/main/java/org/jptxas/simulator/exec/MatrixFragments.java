package org.jptxas.simulator.exec;

/**
 * The fragment layout of {@code ldmatrix.m8n8.b16} / {@code LDSM.16.M88} ({@code .MT88} transposed) and
 * {@code movmatrix} / {@code MOVM}, shared by the PTX interpreter and the SASS emulator: an 8x8 matrix of 16-bit elements is given as its eight 16-byte rows, each as
 * four little-endian words; lane t's register holds elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1), low half first, or,
 * transposed, elements (2(t%4), t/4) and (2(t%4)+1, t/4).
 */
public final class MatrixFragments {
    private MatrixFragments() {}

    /** The 32-bit fragment of the matrix whose rows start at {@code rows[first]} for {@code lane}. */
    public static int of(int[][] rows, int first, int lane, boolean trans) {
        if (!trans) { // row lane/4, columns 2(lane%4) and 2(lane%4)+1: the row's word lane%4
            return rows[first + (lane >>> 2)][lane & 3];
        }
        // column lane/4 of rows 2(lane%4) and 2(lane%4)+1
        int c = lane >>> 2;
        int[] lo = rows[first + 2 * (lane & 3)];
        int[] hi = rows[first + 2 * (lane & 3) + 1];
        return (lo[c >>> 1] >>> 16 * (c & 1) & 0xffff) | (hi[c >>> 1] >>> 16 * (c & 1)) << 16;
    }

    /**
     * {@code movmatrix.m8n8.trans.b16} / {@code MOVM.16.MT88}: {@code fragments[lane]} holds the matrix in the layout
     * above (element (r, c) in lane 4r + c/2, half c%2); the result holds its transpose in the same layout: lane t
     * receives elements (2(t%4), t/4) and (2(t%4)+1, t/4), low half first.
     */
    public static int[] transpose(int[] fragments) {
        int[] out = new int[32];
        for (int lane = 0; lane < 32; lane++) {
            int c = lane >>> 2, r = 2 * (lane & 3);
            out[lane] = element(fragments, r, c) | element(fragments, r + 1, c) << 16;
        }
        return out;
    }

    /** Element (r, c) of a matrix in the fragment layout, as the low 16 bits. */
    private static int element(int[] fragments, int r, int c) {
        return fragments[4 * r + (c >>> 1)] >>> 16 * (c & 1) & 0xffff;
    }
}
