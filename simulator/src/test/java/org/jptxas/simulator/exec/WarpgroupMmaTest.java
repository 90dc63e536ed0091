package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jptxas.simulator.exec.WarpgroupMma.Accumulator;
import org.jptxas.simulator.numeric.SmallFloats;
import org.junit.jupiter.api.Test;

/** The warpgroup multiply's accumulator kinds and register A fragments against values worked out by hand. */
class WarpgroupMmaTest {
    /** A 16 x k matrix A and an n x k matrix B whose entries are f(row, k). */
    private static double[][] matrix(int rows, int k, java.util.function.IntBinaryOperator f) {
        double[][] m = new double[rows][k];
        for (int i = 0; i < rows; i++) {
            for (int q = 0; q < k; q++) {
                m[i][q] = f.applyAsInt(i, q);
            }
        }
        return m;
    }

    @Test
    void integerAccumulatorsWrapOrSaturate() {
        double[][] a = matrix(16, 32, (i, q) -> 127);
        double[][] b = matrix(8, 32, (j, q) -> -128);
        // lane 0, register 0: row 0, column 0; 32 products of -16256
        assertEquals(-520192 + 5, Accumulator.S32.element(a, b, 0, 0, true, 5));
        assertEquals(Integer.MIN_VALUE, Accumulator.S32_SATURATING.element(a, b, 0, 0, true, Integer.MIN_VALUE + 7));
        assertEquals(Integer.MIN_VALUE + 1 - 520192, Accumulator.S32.element(a, b, 0, 0, true, Integer.MIN_VALUE + 1));
        assertEquals(-520192, Accumulator.S32.element(a, b, 0, 0, false, 99));
    }

    @Test
    void popcountAccumulatorCountsCommonBits() {
        double[][] a = matrix(16, 32, (i, q) -> 0b1011_0110);
        double[][] b = matrix(8, 32, (j, q) -> 0b0011_1100);
        // 0b1011_0110 & 0b0011_1100 = 0b0011_0100: 3 bits, 32 bytes
        assertEquals(96 + 4, Accumulator.S32_POPC.element(a, b, 5, 1, true, 4));
    }

    @Test
    void packedHalfAccumulatorsHoldTwoColumns() {
        double[][] a = matrix(16, 16, (i, q) -> i == 0 ? 1 : 0);
        double[][] b = matrix(8, 16, (j, q) -> q == 0 ? j : 0);
        // lane 1, register 0: row 0, columns 2 and 3 -> 2 and 3, plus C = 0.5 in each half
        int half = SmallFloats.toHalf(0.5);
        int r = Accumulator.F16.element(a, b, 1, 0, true, half | half << 16);
        assertEquals(SmallFloats.toHalf(2.5), r & 0xffff);
        assertEquals(SmallFloats.toHalf(3.5), r >>> 16);
        assertEquals(8, Accumulator.F16.registers(32));
        assertEquals(16, Accumulator.F32.registers(32));
    }

    @Test
    void registerAFragmentsOfEveryWidth() {
        int[][] regs = new int[32][4];
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < 4; r++) {
                regs[l][r] = 0x04030201 * (1 + (l * 4 + r) % 3);
            }
        }
        // 8-bit: lane 5 holds row 1 (r 0) / 9 (r 1), K 4 (l % 4) .. +3, and +16 for r >= 2
        double[][] s8 = WarpgroupMma.registerA(regs, "s8", 1);
        assertEquals(32, s8[0].length);
        int w = regs[5][3]; // row 9, k 20..23
        assertEquals((byte) (w >>> 8), s8[9][21]);
        // tf32: one element a register, K 8
        double[][] tf = WarpgroupMma.registerA(regs, "tf32", -1);
        assertEquals(8, tf[0].length);
        assertEquals(-Float.intBitsToFloat(regs[6][2] & 0xffffe000), tf[1][2 + 4]);
        // f16: two a register, K 16
        double[][] h = WarpgroupMma.registerA(regs, "f16", 1);
        assertEquals(SmallFloats.halfToFloat(regs[4][1] >>> 16), h[9][1]);
    }
}
