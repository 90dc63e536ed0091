package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Predicate inputs the emulator once dropped or could not read: LOP3's trailing predicate, which its non-zero test ORs
 * in (ptxas 13 folds {@code lop3.or.b32 d|p, a, b, c, lut, q} into one LOP3), and PLOP3's sign bits of a uniform
 * register (ptxas's {@code add.sat.s32} of an immediate on sm_90).
 */
class PredicateSourcesTest {
    @Test
    void lop3OrsItsPredicateInputIntoTheNonZeroTest() throws Exception {
        List<String> setUp = List.of(
                "MOV R4, RZ",
                "MOV R5, 0x1",
                "ISETP.NE.AND P1, PT, R5, RZ, PT");
        List<String> ops = List.of(
                // a zero result ORed with a true predicate: true (the fast path once wrote the non-zero test alone)
                "LOP3.LUT P0, R6, R4, R4, R4, 0x80, P1",
                "SEL Rd, RZ, 0x1, !P0",
                "LOP3.LUT P0, R6, R4, R4, R4, 0x80, !PT",
                "SEL Rd, RZ, 0x1, !P0",
                "LOP3.LUT P0, R6, R5, R5, R5, 0x80, !PT",
                "SEL Rd, RZ, 0x1, !P0",
                "LOP3.LUT.PAND P0, R6, R5, R5, R5, 0x80, !P1",
                "SEL Rd, RZ, 0x1, !P0");
        assertArrayEquals(new int[] {1, 0, 1, 0}, pickSelects(SassTextRun.ops("sm_80", setUp, ops)));
    }

    @Test
    void plop3ReadsTheSignBitOfAUniformRegister() throws Exception {
        // ptxas's sm_90 add.sat.s32 of an immediate: the immediate sits in a uniform register; LUT 0x2 is "a and b
        // non-negative, sum negative" (overflow up), 0x40 "a and b negative, sum non-negative" (overflow down)
        List<String> setUp = List.of(
                "MOV R4, 0x1",
                "MOV R5, 0x80000000",
                "MOV R6, RZ",
                "UMOV UR6, 0x7fffffff",
                "UMOV UR7, 0x80000000");
        List<String> ops = List.of(
                "PLOP3.LUT P0, PT, R4.SIGN, UR6.SIGN, R5.SIGN, 0x2, 0x0",
                "SEL Rd, RZ, 0x1, !P0",
                "PLOP3.LUT P0, PT, R4.SIGN, UR6.SIGN, R5.SIGN, 0x40, 0x0",
                "SEL Rd, RZ, 0x1, !P0",
                "PLOP3.LUT P0, PT, R5.SIGN, UR7.SIGN, R6.SIGN, 0x40, 0x0",
                "SEL Rd, RZ, 0x1, !P0",
                "PLOP3.LUT P0, PT, R5.SIGN, UR6.SIGN, R6.SIGN, 0x40, 0x0",
                "SEL Rd, RZ, 0x1, !P0");
        assertArrayEquals(new int[] {1, 0, 1, 0}, pickSelects(SassTextRun.ops("sm_90", setUp, ops)));
    }

    /** The SEL lines' words (every second op). */
    private static int[] pickSelects(int[] words) {
        int[] out = new int[words.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = words[2 * i + 1];
        }
        return out;
    }
}
