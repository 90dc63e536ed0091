package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * IMAD.HI's carry out with signed operands, as ptxas 13 writes mad.hi.cc.s32 d, a, b, c (sm_80):
 * {@code IMAD.HI R7, P0, R7, R0, R4} with R4 = 0 and R5 = c, then {@code SEL R5, RZ, 0x1, !P0} for the carry. The
 * product enters the 64-bit sum as its bit pattern (as in IMAD.WIDE), so the carry is the unsigned carry of
 * hi(a * b) + c, PTX's: a negative product plus 0 does not carry, plus 1 at -1 does.
 */
class SignedHighMultiplyCarryTest {
    @Test
    void carryOfANegativeProductsHighWordPlusC() throws Exception {
        int[] out = SassTextRun.ops("sm_80", List.of(
                "MOV R4, 0xffffffff", // a = -1
                "MOV R5, 0x1", // b = 1: the product -1, high word 0xffffffff
                "MOV R8, RZ", "MOV R9, 0x1", // c = 1 in the pair's high word
                "MOV R10, RZ", "MOV R11, RZ", // c = 0
                "MOV R12, RZ", "MOV R13, 0x7fffffff", // c = INT_MAX
                "MOV R6, 0x40000000"), // 2^30: 2^30 * -1's high word is 0xffffffff as well
                List.of(
                "IMAD.HI Rd, P0, R4, R5, R8",
                "SEL Rd, RZ, 0x1, !P0",
                "IMAD.HI Rd, P0, R4, R5, R10",
                "SEL Rd, RZ, 0x1, !P0",
                "IMAD.HI Rd, P0, R4, R6, R12",
                "SEL Rd, RZ, 0x1, !P0",
                "IMAD.HI.U32 Rd, P0, R4, R5, R8",
                "SEL Rd, RZ, 0x1, !P0"));
        assertArrayEquals(new int[] {
            0, 1, // 0xffffffff + 1: 0, carry
            0xffffffff, 0, // 0xffffffff + 0: no carry
            0x7ffffffe, 1, // 0xffffffff + 0x7fffffff carries
            1, 0, // unsigned: 0xffffffff * 1's high word is 0, + 1
        }, out);
    }
}
