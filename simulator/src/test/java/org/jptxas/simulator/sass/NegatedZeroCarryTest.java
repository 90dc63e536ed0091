package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A negated addend enters the adder as {@code ~x + 1}, so negating 0 carries out of the word: the low half of a
 * 64-bit subtraction {@code a - b} carries exactly when {@code a >= b}, b = 0 included. ptxas 13 writes such a
 * subtraction with LEA.HI's negated base ({@code LEA.HI.SX32 R4, P0, R5, -R4, 0xd} then {@code LEA.HI.X.SX32}: an
 * arithmetic shift right by 51 minus a complement, random program seed 5084 on sm_90), where the emulator had read
 * {@code -0} as 0 without a carry, and IADD3 with a negated constant-bank word.
 */
class NegatedZeroCarryTest {
    @Test
    void negatingZeroCarries() throws Exception {
        int[] out = SassTextRun.ops("sm_90", List.of(
                "IMAD.MOV.U32 R4, RZ, RZ, RZ",
                "IMAD.MOV.U32 R5, RZ, RZ, 0x10000"),
                List.of(
                        "LEA.HI.SX32 Rd, P0, R5, -R4, 0xd",
                        "IADD3.X Rd, RZ, RZ, RZ, P0, !PT"));
        assertEquals(0, out[0], "(0x10000 >> 19) - 0");
        assertEquals(1, out[1], "-0 carries");
    }

    @Test
    void negatingAZeroConstantCarries() throws Exception {
        int[] out = SassTextRun.ops("sm_80", List.of(), List.of(
                "IADD3 Rd, P1, RZ, -c[0x0][0x168], RZ", // the word after the only parameter: 0
                "IADD3.X Rd, RZ, RZ, RZ, P1, !PT"));
        assertEquals(0, out[0], "-c[0x0][0x168] of 0");
        assertEquals(1, out[1], "a negated constant-bank 0 carries");
    }

    @Test
    void negatingOneDoesNotCarryFromZero() throws Exception {
        String g = SassTextRun.global("sm_90");
        int[] out = SassTextRun.run("sm_90", List.of(
                SassTextRun.pointer("sm_90", 0, 0),
                "IMAD.MOV.U32 R4, RZ, RZ, 0x1",
                "LEA.HI.SX32 R20, P0, RZ, -R4, 0xd",
                "IADD3.X R21, RZ, RZ, RZ, P0, !PT",
                "STG.E " + g + "[R2.64], R20",
                "STG.E " + g + "[R2.64+0x4], R21",
                "EXIT"), 2);
        assertEquals(-1, out[0], "0 - 1");
        assertEquals(0, out[1], "0 - 1 borrows: no carry");
    }
}
