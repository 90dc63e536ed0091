package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * SGXT and BMSK are PTX's szext and bmsk (ptxas 13 writes szext.clamp.s32 and bmsk.clamp.b32 as a bare SGXT and
 * BMSK): without .W a width or position of 32 or more is judged on the whole register (0x100 is not 0), with .W
 * modulo 32.
 */
class BitFieldClampTest {
    @Test
    void clampLooksAtTheWholeRegisterWrapAtItsLowFiveBits() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0xe0144077",
                "MOV R5, 0x104", // width 260: clamped to the whole register; wrapped to 4
                "MOV R6, 0x8",
                "SGXT R8, R4, R5",
                "SGXT.W R9, R4, R5",
                "SGXT.U32 R10, R4, R6",
                "BMSK R11, R6, R5",
                "BMSK.W R12, R6, R5",
                "BMSK R13, R5, R6",
                "STG.E [R2.64], R8",
                "STG.E [R2.64+0x4], R9",
                "STG.E [R2.64+0x8], R10",
                "STG.E [R2.64+0xc], R11",
                "STG.E [R2.64+0x10], R12",
                "STG.E [R2.64+0x14], R13",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 6);
        assertEquals(0xe0144077, out[0]); // szext.clamp with N >= 32: a
        assertEquals(0x00000007, out[1]); // N = 260 & 31 = 4: 0x7, sign bit 0
        assertEquals(0x00000077, out[2]);
        assertEquals(0xffffff00, out[3]); // bmsk.clamp 8, 260: from bit 8 to 31
        assertEquals(0x00000f00, out[4]); // bmsk.wrap 8, 4
        assertEquals(0x00000000, out[5]); // bmsk.clamp at position 260: 0
    }
}
