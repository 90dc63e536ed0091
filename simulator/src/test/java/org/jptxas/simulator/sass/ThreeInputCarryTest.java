package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * A three-input 64-bit add as ptxas writes it: {@code IADD3 Rlo, P0, P1, a, b, c} then {@code IADD3.X Rhi, ..., P0,
 * P1}. The two carry-outs each count one, so a low sum that carries 2 (three 0xffffffff) must add 2 to the high
 * word; reading them as the sum's bits 32 and 33 added only 1 (random program seed 199 on sm_90).
 */
class ThreeInputCarryTest {
    @Test
    void aCarryOfTwoReachesTheHighWord() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = SassTextRun.run("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x10),
                "IMAD.MOV.U32 R4, RZ, RZ, -0x1",
                // lane 0: three 0xffffffff (carry 2); other lanes: 0xffffffff, 1, 0 (carry 1)
                "ISETP.NE.U32.AND P2, PT, R0, RZ, PT",
                "SEL R5, R4, 0x1, !P2",
                "SEL R6, R4, RZ, !P2",
                "IADD3 R8, P0, P1, R4, R5, R6",
                "IADD3.X R9, RZ, RZ, RZ, P0, P1",
                "STG.E [R2.64], R8",
                "STG.E [R2.64+0x4], R9",
                "EXIT"), 32 * 4);
        assertEquals(-3, out[0], "lane 0: low word of 3 * 0xffffffff");
        assertEquals(2, out[1], "lane 0: the carry of 2");
        assertEquals(0, out[4], "lane 1: low word of 0xffffffff + 1");
        assertEquals(1, out[5], "lane 1: the carry of 1");
    }
}
