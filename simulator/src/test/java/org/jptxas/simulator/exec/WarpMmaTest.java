package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;
import org.jptxas.simulator.numeric.SmallFloats;
import org.junit.jupiter.api.Test;

/**
 * {@link WarpMma} against the PTX ISA's fragment tables written out register by register (not the formulas the class
 * uses): random matrices are distributed over the lanes as the ISA draws them, multiplied, and every lane's D is
 * compared with the product. Inputs are small integers, so every sum is exact and the numerics cannot hide a layout
 * error.
 */
class WarpMmaTest {
    private static final Random RANDOM = new Random(23);

    /** Small integers as f16 (or bf16) bits. */
    private static int[][] matrix(int rows, int cols, boolean bf16) {
        int[][] m = new int[rows][cols];
        for (int[] row : m) {
            for (int j = 0; j < cols; j++) {
                int v = RANDOM.nextInt(9) - 4;
                row[j] = bf16 ? SmallFloats.toBf16(v) : SmallFloats.toHalf(v);
            }
        }
        return m;
    }

    private static double value(int bits, boolean bf16) {
        return bf16 ? SmallFloats.bf16ToFloat(bits) : SmallFloats.halfToFloat(bits);
    }

    private static int pack(int lo, int hi) {
        return lo & 0xffff | hi << 16;
    }

    /** m16n8k16, f16 or bf16 inputs, f32 C/D: the ISA's tables for A (a0..a3), B (b0, b1) and C (c0..c3). */
    @Test
    void m16n8k16LayoutIsTheIsas() {
        for (boolean bf16 : new boolean[] {false, true}) {
            int[][] a = matrix(16, 16, bf16), b = matrix(16, 8, bf16);
            float[][] c = new float[16][8];
            int[][] ra = new int[32][4], rb = new int[32][2], rc = new int[32][4];
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                ra[lane][0] = pack(a[g][2 * t], a[g][2 * t + 1]);
                ra[lane][1] = pack(a[g + 8][2 * t], a[g + 8][2 * t + 1]);
                ra[lane][2] = pack(a[g][2 * t + 8], a[g][2 * t + 9]);
                ra[lane][3] = pack(a[g + 8][2 * t + 8], a[g + 8][2 * t + 9]);
                rb[lane][0] = pack(b[2 * t][g], b[2 * t + 1][g]);
                rb[lane][1] = pack(b[2 * t + 8][g], b[2 * t + 9][g]);
                for (int i = 0; i < 4; i++) {
                    c[g + 8 * (i / 2)][2 * t + i % 2] = RANDOM.nextInt(100) - 50;
                    rc[lane][i] = Float.floatToRawIntBits(c[g + 8 * (i / 2)][2 * t + i % 2]);
                }
            }
            Spec s = new Spec(16, 8, 16, bf16 ? Type.BF16 : Type.F16, Type.F32, Type.F32, false);
            int[][] d = WarpMma.multiply(s, ra, rb, rc);
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                for (int i = 0; i < 4; i++) {
                    int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                    double want = c[row][col];
                    for (int k = 0; k < 16; k++) {
                        want += value(a[row][k], bf16) * value(b[k][col], bf16);
                    }
                    assertEquals((float) want, Float.intBitsToFloat(d[lane][i]), "lane " + lane + " c" + i);
                }
            }
        }
    }

    /** m16n8k8 f16 with f16 C/D: A a0, a1; B b0; C/D two f16x2 registers (c0,c1 and c2,c3). */
    @Test
    void m16n8k8WithF16AccumulatorIsTheIsas() {
        int[][] a = matrix(16, 8, false), b = matrix(8, 8, false), c = matrix(16, 8, false);
        int[][] ra = new int[32][2], rb = new int[32][1], rc = new int[32][2];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            ra[lane][0] = pack(a[g][2 * t], a[g][2 * t + 1]);
            ra[lane][1] = pack(a[g + 8][2 * t], a[g + 8][2 * t + 1]);
            rb[lane][0] = pack(b[2 * t][g], b[2 * t + 1][g]);
            rc[lane][0] = pack(c[g][2 * t], c[g][2 * t + 1]);
            rc[lane][1] = pack(c[g + 8][2 * t], c[g + 8][2 * t + 1]);
        }
        int[][] d = WarpMma.multiply(new Spec(16, 8, 8, Type.F16, Type.F16, Type.F16, false), ra, rb, rc);
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 4; i++) {
                int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                double want = value(c[row][col], false);
                for (int k = 0; k < 8; k++) {
                    want += value(a[row][k], false) * value(b[k][col], false);
                }
                int got = d[lane][i / 2] >>> 16 * (i % 2) & 0xffff;
                assertEquals(SmallFloats.toHalf(want), got, "lane " + lane + " element " + i);
            }
        }
    }

    /**
     * m16n8k32 s8 (IMMA.16832): A a0..a3 (g, 4t..4t+3), a4..a7 (g+8, ..), a8..a11 (g, 4t+16..), a12..a15 (g+8, 4t+16..),
     * four bytes to a register; B b0..b3 (4t..4t+3, g), b4..b7 (4t+16.., g); s32 C/D as f32's; sums wrap, satfinite
     * clamps.
     */
    @Test
    void m16n8k32S8LayoutIsTheIsas() {
        int[][] a = new int[16][32], b = new int[32][8], c = new int[16][8];
        for (int[] row : a) {
            for (int j = 0; j < 32; j++) {
                row[j] = RANDOM.nextInt(256) - 128;
            }
        }
        for (int[] row : b) {
            for (int j = 0; j < 8; j++) {
                row[j] = RANDOM.nextInt(256) - 128;
            }
        }
        c[3][5] = Integer.MAX_VALUE; // overflows: wraps, or clamps with satfinite
        int[][] ra = new int[32][4], rb = new int[32][2], rc = new int[32][4];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int r = 0; r < 4; r++) {
                int row = g + 8 * (r % 2), col = 4 * t + 16 * (r / 2);
                ra[lane][r] = bytes(a[row][col], a[row][col + 1], a[row][col + 2], a[row][col + 3]);
            }
            for (int r = 0; r < 2; r++) {
                int k = 4 * t + 16 * r;
                rb[lane][r] = bytes(b[k][g], b[k + 1][g], b[k + 2][g], b[k + 3][g]);
            }
            for (int i = 0; i < 4; i++) {
                rc[lane][i] = c[g + 8 * (i / 2)][2 * t + i % 2];
            }
        }
        for (boolean sat : new boolean[] {false, true}) {
            int[][] d = WarpMma.multiply(new Spec(16, 8, 32, Type.S8, Type.S32, Type.S32, sat), ra, rb, rc);
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                for (int i = 0; i < 4; i++) {
                    int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                    long want = c[row][col];
                    for (int k = 0; k < 32; k++) {
                        want += (long) a[row][k] * b[k][col];
                    }
                    int expected = sat ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, want)) : (int) want;
                    assertEquals(expected, d[lane][i], "lane " + lane + " c" + i + (sat ? " satfinite" : ""));
                }
            }
        }
    }

    private static int bytes(int b0, int b1, int b2, int b3) {
        return b0 & 0xff | (b1 & 0xff) << 8 | (b2 & 0xff) << 16 | (b3 & 0xff) << 24;
    }

    /** The sum is rounded once: 2048 + four ones in f16 is 2052 (exact), not 2048 (2048 + 1 rounds back to 2048). */
    @Test
    void f16ResultIsRoundedOnce() {
        int[][] ra = new int[32][2], rb = new int[32][1], rc = new int[32][2];
        int one = SmallFloats.toHalf(1);
        for (int lane = 0; lane < 32; lane++) {
            ra[lane][0] = lane / 4 == 0 ? pack(one, one) : 0; // row 0, k = 0..7: ones
            rb[lane][0] = pack(one, 0); // B(2t, g) = 1: column g gets the ones of rows 0, 2, 4, 6
            rc[lane][0] = lane == 0 ? pack(SmallFloats.toHalf(2048), 0) : 0;
        }
        int[][] d = WarpMma.multiply(new Spec(16, 8, 8, Type.F16, Type.F16, Type.F16, false), ra, rb, rc);
        assertEquals(2052.0, SmallFloats.halfToFloat(d[0][0] & 0xffff)); // 2048 + 4, exactly representable
    }
}
