package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * ptxas writes a 64-bit {@code x - (y << s)} as {@code LEA Rlo, P0, -Ry, Rx, s} and {@code IMAD.X Rhi, ..., ~Rh, P0}:
 * the low half adds {@code ~(y << s) + 1}, so its carry out is set when no borrow occurs, including when
 * {@code y << s} is 0. Negating before the add lost that carry (random programs seeds 127 on sm_86, 198 on sm_89).
 */
class NegatedLeaCarryTest {
    @Test
    void aNegatedShiftedOperandCarriesAsASubtraction() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = SassTextRun.runAsWritten("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x10),
                // lane n: 0 - (n << 25) and 5 - (n << 25)
                "LEA R4, P0, -R0, RZ, 0x19",
                "SEL R5, RZ, 0x1, !P0",
                "IMAD.MOV.U32 R6, RZ, RZ, 0x5",
                "LEA R7, P1, -R0, R6, 0x19",
                "SEL R8, RZ, 0x1, !P1",
                "STG.E [R2.64], R4",
                "STG.E [R2.64+0x4], R5",
                "STG.E [R2.64+0x8], R7",
                "STG.E [R2.64+0xc], R8",
                "EXIT"), 32 * 4);
        assertEquals(0, out[0], "lane 0: 0 - 0");
        assertEquals(1, out[1], "lane 0: 0 - 0 does not borrow");
        assertEquals(5, out[2], "lane 0: 5 - 0");
        assertEquals(1, out[3], "lane 0: 5 - 0 does not borrow");
        assertEquals(-(1 << 25), out[4], "lane 1: 0 - (1 << 25)");
        assertEquals(0, out[5], "lane 1: borrows");
        assertEquals(5 - (1 << 25), out[6], "lane 1: 5 - (1 << 25)");
        assertEquals(0, out[7], "lane 1: borrows");
    }
}
