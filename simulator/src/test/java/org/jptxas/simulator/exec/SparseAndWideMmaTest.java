package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;
import org.jptxas.simulator.numeric.SmallFloats;
import org.junit.jupiter.api.Test;

/**
 * {@link WarpMma#multiplySparse} ({@link SparseA}'s model written out register by register for f16 m16n8k16 and tf32
 * m16n8k8) and the f64 m16n8k4 / m16n8k16 fragments of sm_90 (the ISA's tables a0, a1 / b0 / c0..c3), on small
 * integers so every sum is exact.
 */
class SparseAndWideMmaTest {
    private static final Random RANDOM = new Random(29);

    /**
     * f16 m16n8k16 sparse, selector 2: a0 holds the kept pair of row g's chunk t, a1 of row g + 8's; lane 4g + 2's
     * metadata holds row g's chunks at bits 4c, row g + 8's at 16 + 4c; the other lanes' metadata is noise.
     */
    @Test
    void f16SparseA() {
        float[][] a = new float[16][16], b = new float[16][8];
        int[][] ra = new int[32][2], rb = new int[32][2], rc = new int[32][4];
        int[] meta = new int[32];
        for (int lane = 0; lane < 32; lane++) {
            meta[lane] = RANDOM.nextInt();
        }
        for (int g = 0; g < 8; g++) {
            meta[4 * g + 2] = 0;
        }
        for (int row = 0; row < 16; row++) {
            for (int chunk = 0; chunk < 4; chunk++) {
                int i0 = RANDOM.nextInt(3), i1 = i0 + 1 + RANDOM.nextInt(3 - i0);
                int v0 = RANDOM.nextInt(7) - 3, v1 = RANDOM.nextInt(7) - 3;
                a[row][4 * chunk + i0] = v0;
                a[row][4 * chunk + i1] = v1;
                int lane = 4 * (row % 8) + chunk;
                ra[lane][row / 8] = SmallFloats.toHalf(v0) & 0xffff | SmallFloats.toHalf(v1) << 16;
                meta[4 * (row % 8) + 2] |= (i0 | i1 << 2) << 16 * (row / 8) + 4 * chunk;
            }
        }
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int r = 0; r < 2; r++) {
                int lo = RANDOM.nextInt(7) - 3, hi = RANDOM.nextInt(7) - 3;
                b[2 * t + 8 * r][g] = lo;
                b[2 * t + 8 * r + 1][g] = hi;
                rb[lane][r] = SmallFloats.toHalf(lo) & 0xffff | SmallFloats.toHalf(hi) << 16;
            }
        }
        int[][] d = WarpMma.multiplySparse(new Spec(16, 8, 16, Type.F16, Type.F32, Type.F32, false), ra, rb, rc, meta,
                2);
        assertProduct(a, b, d, 16);
    }

    /** tf32 m16n8k8 sparse, selector 1: a0 is row g's kept element of chunk t (metadata 0b0100: the first, 0b1110). */
    @Test
    void tf32SparseA() {
        float[][] a = new float[16][8], b = new float[8][8];
        int[][] ra = new int[32][2], rb = new int[32][2], rc = new int[32][4];
        int[] meta = new int[32];
        for (int row = 0; row < 16; row++) {
            for (int chunk = 0; chunk < 4; chunk++) {
                int keep = RANDOM.nextInt(2), v = RANDOM.nextInt(7) - 3;
                a[row][2 * chunk + keep] = v;
                ra[4 * (row % 8) + chunk][row / 8] = Float.floatToRawIntBits(v);
                meta[4 * (row % 8) + 1] |= (keep == 0 ? 0b0100 : 0b1110) << 16 * (row / 8) + 4 * chunk;
            }
        }
        for (int lane = 0; lane < 32; lane++) {
            for (int r = 0; r < 2; r++) {
                int v = RANDOM.nextInt(7) - 3;
                b[lane % 4 + 4 * r][lane / 4] = v;
                rb[lane][r] = Float.floatToRawIntBits(v);
            }
        }
        int[][] d = WarpMma.multiplySparse(new Spec(16, 8, 8, Type.TF32, Type.F32, Type.F32, false), ra, rb, rc, meta,
                1);
        assertProduct(a, b, d, 8);
    }

    private static void assertProduct(float[][] a, float[][] b, int[][] d, int k) {
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 4; i++) {
                int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                double want = 0;
                for (int q = 0; q < k; q++) {
                    want += a[row][q] * b[q][col];
                }
                assertEquals((float) want, Float.intBitsToFloat(d[lane][i]), "lane " + lane + " c" + i);
            }
        }
    }

    /** f64 m16n8k4 and m16n8k16: A a_i (g + 8 (i % 2), t + 4 (i / 2)), B b_i (t + 4i, g), C/D c_i (g + 8 (i / 2), 2t + i % 2). */
    @Test
    void f64M16Fragments() {
        for (int k : new int[] {4, 16}) {
            double[][] a = new double[16][k], b = new double[k][8], c = new double[16][8];
            int[][] ra = new int[32][k], rb = new int[32][k / 2], rc = new int[32][8];
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                for (int i = 0; i < k / 2; i++) {
                    double v = RANDOM.nextInt(9) - 4;
                    a[g + 8 * (i % 2)][t + 4 * (i / 2)] = v;
                    put(ra[lane], i, v);
                }
                for (int i = 0; i < k / 4; i++) {
                    double v = RANDOM.nextInt(9) - 4;
                    b[t + 4 * i][g] = v;
                    put(rb[lane], i, v);
                }
                for (int i = 0; i < 4; i++) {
                    double v = RANDOM.nextInt(9) - 4;
                    c[g + 8 * (i / 2)][2 * t + i % 2] = v;
                    put(rc[lane], i, v);
                }
            }
            int[][] d = WarpMma.multiply(new Spec(16, 8, k, Type.F64, Type.F64, Type.F64, false), ra, rb, rc);
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                for (int i = 0; i < 4; i++) {
                    int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                    double want = c[row][col];
                    for (int q = 0; q < k; q++) {
                        want += a[row][q] * b[q][col];
                    }
                    long got = d[lane][2 * i] & 0xffffffffL | (long) d[lane][2 * i + 1] << 32;
                    assertEquals(want, Double.longBitsToDouble(got), "k" + k + " lane " + lane + " c" + i);
                }
            }
        }
    }

    private static void put(int[] regs, int element, double v) {
        long bits = Double.doubleToRawLongBits(v);
        regs[2 * element] = (int) bits;
        regs[2 * element + 1] = (int) (bits >>> 32);
    }
}
