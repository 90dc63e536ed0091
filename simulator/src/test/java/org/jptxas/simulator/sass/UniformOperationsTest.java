package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * Instructions ptxas 13 writes in the random programs that the emulator stopped on: UBREV, UIMAD.X (a carry-in),
 * ULOP3.LUT with a uniform predicate result (its non-zero test OR UPq) and IMAD.HI.U32 with a 64-bit constant-bank c.
 */
class UniformOperationsTest {
    @Test
    void uniformOperationsAndAConstantBankHighAddend() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = SassTextRun.runAsWritten("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x20),
                "UMOV UR4, 0x1",
                "UBREV UR5, UR4",
                "UISETP.EQ.U32.AND UP1, UPT, URZ, URZ, UPT",
                "UMOV UR6, 0x3",
                "UIMAD.X UR7, UR6, UR6, UR4, UP1",
                "ULOP3.LUT UP0, UR8, UR4, 0x1, URZ, 0xc0, !UPT",
                "ULOP3.LUT UP2, UR9, UR4, 0x2, URZ, 0xc0, !UPT",
                "USEL UR10, URZ, 0x1, !UP0",
                "USEL UR11, URZ, 0x1, !UP2",
                String.format("IMAD.HI.U32 R4, RZ, RZ, c[0x0][0x%x]", params),
                "MOV R5, UR5",
                "MOV R6, UR7",
                "MOV R7, UR10",
                "MOV R8, UR11",
                "STG.E [R2.64], R4",
                "STG.E [R2.64+0x4], R5",
                "STG.E [R2.64+0x8], R6",
                "STG.E [R2.64+0xc], R7",
                "STG.E [R2.64+0x10], R8",
                "STG.E [R2.64+0x14], R3",
                "EXIT"), 32 * 8);
        assertEquals(out[5], out[0], "IMAD.HI.U32 RZ, RZ, c: the constant's high word (lane 0's buffer address)");
        assertEquals(0x80000000, out[1], "UBREV of 1");
        assertEquals(3 * 3 + 1 + 1, out[2], "UIMAD.X: 3 * 3 + 1 + the carry-in");
        assertEquals(1, out[3], "ULOP3.LUT UP0: 1 & 1 is non-zero");
        assertEquals(0, out[4], "ULOP3.LUT UP2: 1 & 2 is zero");
    }

    /** USGXT (the uniform SGXT ptxas and jptxas write for a descriptor's bfe): zero- and sign-extension of a field. */
    @Test
    void uniformSignOrZeroExtension() throws Exception {
        int[] out = SassTextRun.runAsWritten("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x20),
                "UMOV UR4, 0x3ffff",
                "USGXT.U32 UR5, UR4, 0xe",
                "USGXT UR6, UR4, 0xe",
                "MOV R4, UR5",
                "MOV R5, UR6",
                "STG.E [R2.64], R4",
                "STG.E [R2.64+0x4], R5",
                "EXIT"), 32 * 8);
        assertEquals(0x3fff, out[0], "USGXT.U32: the low 14 bits");
        assertEquals(-1, out[1], "USGXT: bit 13 extended");
    }
}
