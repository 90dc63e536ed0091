package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code IMAD.U32.X Rd, Ra, imm, Rc, P}: the low word of {@code Ra * imm + Rc} plus the carry-in predicate, as ptxas 13
 * writes the high word of an add.cc chain whose addend is shifted left ({@code shl.b32 t, x, 1; add.cc.u32 lo, a, b;
 * addc.u32 hi, t, 0} is {@code IMAD.U32.X R3, R0, 0x2, RZ, P0}); the decoder could not read it on sm_80 before.
 */
class ImmediateUnsignedCarryMultiplyAddTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_89", "sm_90"}) // (SassTextRun writes sm_80 and later stores)
    void theCarryInIsAddedToTheProduct(String sm) throws Exception {
        int[] out = SassTextRun.ops(sm, List.of(
                "IMAD.MOV.U32 R4, RZ, RZ, -0x1",
                "IMAD.MOV.U32 R5, RZ, RZ, 0x7"),
                List.of(
                        "IADD3 Rd, P0, R4, 0x1, RZ", // 0xffffffff + 1: carries
                        "IADD3 Rd, P1, R5, 0x1, RZ", // 7 + 1: no carry
                        "IMAD.U32.X Rd, R5, 0x2, RZ, P0",
                        "IMAD.U32.X Rd, R5, 0x10, R5, P1",
                        "IMAD.U32.X Rd, R4, -0x80000000, R4, P0")); // nvdisasm prints the immediate signed
        assertEquals(0, out[0]);
        assertEquals(8, out[1]);
        assertEquals(7 * 2 + 1, out[2], "7 * 2 + carry");
        assertEquals(7 * 16 + 7, out[3], "no carry");
        assertEquals(0x80000000, out[4], "low word of 0xffffffff * 2^31 + 0xffffffff + 1");
    }
}
