package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class MatrixFragmentsTest {
    /** Element (r, c) = 16 r + c, in the fragment layout: lane 4r + c/2, half c%2. */
    private static int[] numbered() {
        int[] f = new int[32];
        for (int lane = 0; lane < 32; lane++) {
            int r = lane / 4, c = 2 * (lane % 4);
            f[lane] = (16 * r + c) | (16 * r + c + 1) << 16;
        }
        return f;
    }

    @Test
    void transposeSwapsRowsAndColumns() {
        int[] t = MatrixFragments.transpose(numbered());
        for (int lane = 0; lane < 32; lane++) {
            int r = lane / 4, c = 2 * (lane % 4);
            assertEquals(16 * c + r, t[lane] & 0xffff, "lane " + lane + " low");
            assertEquals(16 * (c + 1) + r, t[lane] >>> 16, "lane " + lane + " high");
        }
    }

    @Test
    void transposingTwiceGivesTheMatrixBack() {
        Random rnd = new Random(8);
        int[] f = new int[32];
        for (int i = 0; i < 32; i++) {
            f[i] = rnd.nextInt();
        }
        assertArrayEquals(f, MatrixFragments.transpose(MatrixFragments.transpose(f)));
    }

    /** movmatrix's transpose is the layout ldmatrix.trans reads from the same rows. */
    @Test
    void transposeAgreesWithTheTransposedLoad() {
        int[] f = numbered();
        int[][] rows = new int[8][4];
        for (int lane = 0; lane < 32; lane++) {
            rows[lane / 4][lane % 4] = f[lane];
        }
        int[] t = MatrixFragments.transpose(f);
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(MatrixFragments.of(rows, 0, lane, true), t[lane], "lane " + lane);
        }
    }
}
