package org.jptxas.simulator.exec;

import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Volta's quad-pair multiply {@code mma.sync.aligned.m8n8k4.row.col} with f16 inputs (PTX) and Turing's
 * {@code HMMA.884} (SASS): each quad pair (lanes 4q..4q+3 and 4q+16..4q+19, q = 0..3) computes its own D (8 x 8) =
 * A (8 x 4) B (4 x 8) + C, four independent multiplies per warp.
 *
 * <p>Fragments (PTX ISA; r = lane % 4, plus 4 for lanes 16 and up): A holds row r (elements k = 0..3, two f16 per
 * register, low half first); B holds column r; an f16 C/D holds row r (columns 0..7 in four registers); an f32 C/D
 * element i (0..7) is row {@code (lane & 1) + (i & 2)} (plus 4 for lanes 16 and up), column
 * {@code (i & 4) + (lane & 2) + (i & 1)}.
 *
 * <p>Numerics as {@link WarpMma}: exact products summed in k order in double, C added last, rounded once.
 */
public final class QuadPairMma {
    private QuadPairMma() {}

    /** D registers of every lane (4 for f16 C/D, 8 for f32). */
    public static int[][] multiply(boolean f32, int[][] a, int[][] b, int[][] c) {
        int regs = f32 ? 8 : 4;
        int[][] d = new int[32][regs];
        for (int q = 0; q < 4; q++) {
            double[][] fa = new double[8][4], fb = new double[4][8], fc = new double[8][8];
            for (int lane : lanes(q)) {
                int r = row(lane);
                for (int k = 0; k < 4; k++) {
                    fa[r][k] = half(a[lane], k);
                    fb[k][r] = half(b[lane], k);
                }
                for (int i = 0; i < 8; i++) {
                    if (f32) {
                        fc[f32Row(lane, i)][f32Col(lane, i)] = Float.intBitsToFloat(c[lane][i]);
                    } else {
                        fc[r][i] = half(c[lane], i);
                    }
                }
            }
            for (int lane : lanes(q)) {
                for (int i = 0; i < 8; i++) {
                    int row = f32 ? f32Row(lane, i) : row(lane), col = f32 ? f32Col(lane, i) : i;
                    double sum = 0;
                    for (int k = 0; k < 4; k++) {
                        sum += fa[row][k] * fb[k][col];
                    }
                    sum += fc[row][col];
                    if (f32) {
                        d[lane][i] = Float.floatToRawIntBits((float) sum);
                    } else {
                        int h = SmallFloats.toHalf(sum) & 0xffff, shift = 16 * (i % 2);
                        d[lane][i / 2] = d[lane][i / 2] & ~(0xffff << shift) | h << shift;
                    }
                }
            }
        }
        return d;
    }

    private static int[] lanes(int q) {
        return new int[] {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3, 4 * q + 16, 4 * q + 17, 4 * q + 18, 4 * q + 19};
    }

    private static int row(int lane) {
        return lane % 4 + (lane >= 16 ? 4 : 0);
    }

    private static int f32Row(int lane, int i) {
        return (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0);
    }

    private static int f32Col(int lane, int i) {
        return (i & 4) + (lane & 2) + (i & 1);
    }

    private static double half(int[] regs, int e) {
        return SmallFloats.halfToFloat(regs[e / 2] >>> 16 * (e % 2) & 0xffff);
    }
}
