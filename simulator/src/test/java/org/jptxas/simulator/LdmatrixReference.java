package org.jptxas.simulator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The fragments of PTX {@code ldmatrix.m8n8.b16} (SASS {@code LDSM.16.M88} / {@code .MT88}) computed from matrices,
 * independently of the executors: matrix i is the 8x8 array of 16-bit elements whose row j is the 16 bytes of the
 * image at {@code rowOffset[8i + j]} (the row lane 8i+j points to); lane t's register i holds elements (t/4, 2(t%4))
 * and (t/4, 2(t%4)+1) of it, low half first, or of its transpose for {@code .trans} / {@code .MT88}.
 */
public final class LdmatrixReference {
    private LdmatrixReference() {}

    /** {@code [lane][i]}: the 32-bit fragment of matrix i in lane {@code lane}. */
    public static int[][] fragments(byte[] image, int[] rowOffset, int n, boolean trans) {
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        int[][] out = new int[32][n];
        for (int i = 0; i < n; i++) {
            int[][] mat = new int[8][8];
            for (int j = 0; j < 8; j++) {
                for (int c = 0; c < 8; c++) {
                    int e = b.getShort(rowOffset[8 * i + j] + 2 * c) & 0xffff;
                    if (trans) {
                        mat[c][j] = e;
                    } else {
                        mat[j][c] = e;
                    }
                }
            }
            for (int t = 0; t < 32; t++) {
                out[t][i] = mat[t / 4][2 * (t % 4)] | mat[t / 4][2 * (t % 4) + 1] << 16;
            }
        }
        return out;
    }

    /** {@code size} random bytes from {@code seed}: the shared memory the rows are read from. */
    public static byte[] image(long seed, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** 32 distinct 16-byte rows of the first 64 of the image, shuffled: lane l gives row {@code rows[l]}. */
    public static int[] rows(long seed) {
        int[] all = new int[64];
        for (int i = 0; i < 64; i++) {
            all[i] = i;
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 63; i > 0; i--) {
            int j = r.nextInt(i + 1), x = all[i];
            all[i] = all[j];
            all[j] = x;
        }
        return Arrays.copyOf(all, 32);
    }

    /** {@link #fragments} for lane l giving row {@code rows[l]} of the image. */
    public static int[][] fragmentsOfRows(byte[] image, int[] rows, int n, boolean trans) {
        int[] offsets = new int[32];
        for (int l = 0; l < 32; l++) {
            offsets[l] = 16 * rows[l];
        }
        return fragments(image, offsets, n, trans);
    }
}
