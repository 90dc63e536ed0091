package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * sm_90's HFMA2{.BF16_V2}.OOB{.RELU} (fma.rn.oob{.relu}.{f16,f16x2,bf16,bf16x2}): a lane where an operand holds the
 * 16-bit out-of-bounds NaN (0x7fff) is +0, the other lane the plain fma; with ptxas's lane selectors
 * (.H0_H0/.H1_H1) as it writes the scalar forms.
 */
class HalfFmaOobTest {
    @Test
    void oobLanesAreZero() throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                SassTextRun.pointer(sm, 0, 0),
                "MOV R4, 0x7fff4000", // f16 (OOB NaN, 2.0)
                "MOV R5, 0x3c004200", // f16 (1.0, 3.0)
                "MOV R6, 0xbc00bc00", // f16 (-1.0, -1.0)
                "MOV R7, 0x7fff4000", // bf16 (OOB NaN, 2.0)
                "MOV R8, 0x3f804040", // bf16 (1.0, 3.0)
                "MOV R9, 0xbf80bf80", // bf16 (-1.0, -1.0)
                "HFMA2.OOB R10, R4, R5, R6",
                "HFMA2.OOB.RELU R11, R6, R5, R6",
                "HFMA2.BF16_V2.OOB R12, R7, R8, R9",
                "HFMA2.OOB R13, R5.H0_H0, R4.H1_H1, R6.H0_H0",
                "HFMA2 R14, R4, R5, R6",
                "STG.E " + SassTextRun.global(sm) + "[R2.64], R10",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x4], R11",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R12",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0xc], R13",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x10], R14",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 5);
        assertEquals(0x00004500, out[0]); // high lane OOB: +0; low 2 * 3 - 1 = 5
        assertEquals(0x00000000, out[1]); // -1 * 1 - 1 and -1 * 3 - 1 are negative: .RELU
        assertEquals(0x000040a0, out[2]); // bf16: high lane +0, low 5
        assertEquals(0x00000000, out[3]); // both lanes read the OOB NaN through .H1_H1
        assertEquals(0x7fff, out[4] >>> 16); // without .OOB the NaN propagates
    }
}
