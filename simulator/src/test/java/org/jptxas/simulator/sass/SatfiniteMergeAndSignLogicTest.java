package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * Words of ptxas 13 the decoder now reads, run: {@code F2FP.SATFINITE} (an infinite result becomes the largest finite
 * value), {@code F2FP.BF16.MERGE_C} (b rounded into the low half, c's high half kept), {@code PLOP3} on registers'
 * sign bits, and {@code UIMAD.WIDE.U32} with a carry-out and its {@code .X} carry-in.
 */
class SatfiniteMergeAndSignLogicTest {
    @Test
    void packsMergesSignLogicAndWideCarries() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0x49742400",
                "MOV R5, 0x3f800000",
                "MOV R6, 0x12345678",
                "F2FP.SATFINITE.PACK_AB R7, R4, R5",
                "F2FP.BF16.MERGE_C R8, R5, R6",
                "MOV R9, 0x80000000",
                "MOV R10, 0x1",
                "MOV R11, 0xffffffff",
                "MOV R12, RZ",
                // a and c negative, b not: entry 5 of the table
                "PLOP3.LUT P0, PT, R9.SIGN, R10.SIGN, R11.SIGN, 0x20, 0x0",
                "@P0 MOV R12, 0x1",
                "UMOV UR4, 0x3",
                "UMOV UR8, 0xffffffff",
                "UMOV UR9, 0xffffffff",
                // 3 * 2 + (2^64 - 1) = 5, carry out; then 0 * 0 + 0 + carry = 1
                "UIMAD.WIDE.U32 UR6, UP0, UR4, 0x2, UR8",
                "UIMAD.WIDE.U32.X UR10, URZ, 0x0, URZ, UP0",
                "MOV R13, UR6",
                "MOV R14, UR10",
                "STG.E [R2.64], R7",
                "STG.E [R2.64+0x4], R8",
                "STG.E [R2.64+0x8], R12",
                "STG.E [R2.64+0xc], R13",
                "STG.E [R2.64+0x10], R14",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 5);
        assertEquals(0x7bff3c00, out[0]);
        assertEquals(0x12343f80, out[1]);
        assertEquals(1, out[2]);
        assertEquals(5, out[3]);
        assertEquals(1, out[4]);
    }
}
