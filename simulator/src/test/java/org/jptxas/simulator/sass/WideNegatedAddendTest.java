package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * ptxas folds {@code mul.wide.u32} followed by {@code sub.u64} into {@code IMAD.WIDE.U32 Rd, a, b, -Rc}: the '-' negates
 * the whole 64-bit pair, as in {@code IMAD.HI Rd, a, b, -Rc} (mul.hi then sub). Reading the pair without its sign
 * added c instead (random programs seed 108 on sm_89, 274 on sm_90).
 */
class WideNegatedAddendTest {
    @Test
    void minusNegatesTheWholePair() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = SassTextRun.run("sm_80", List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_80", 0, 0x10),
                "IMAD.MOV.U32 R4, RZ, RZ, 0x5",
                "IMAD.MOV.U32 R5, RZ, RZ, 0x1",
                "IMAD.MOV.U32 R6, RZ, RZ, 0x3",
                // lane n: n * 3 - 0x1_0000_0005; lane 0 also: 0 - 0 with its carry out
                "IMAD.WIDE.U32 R8, R0, R6, -R4",
                "IMAD.WIDE.U32 R10, P0, R0, R6, -RZ",
                "SEL R12, RZ, 0x1, !P0",
                // mul.hi.s32 then sub 6: IMAD.HI Rd, a, b, -{0, 6}
                "IMAD.MOV.U32 R14, RZ, RZ, RZ",
                "IMAD.MOV.U32 R15, RZ, RZ, 0x6",
                "IMAD.HI R13, R0, R6, -R14",
                "STG.E [R2.64], R8",
                "STG.E [R2.64+0x4], R9",
                "STG.E [R2.64+0x8], R12",
                "STG.E [R2.64+0xc], R13",
                "EXIT"), 32 * 4);
        long lane0 = Integer.toUnsignedLong(out[0]) | (long) out[1] << 32;
        long lane1 = Integer.toUnsignedLong(out[4]) | (long) out[5] << 32;
        assertEquals(-0x1_0000_0005L, lane0, "lane 0: 0 - 0x100000005");
        assertEquals(3 - 0x1_0000_0005L, lane1, "lane 1: 3 - 0x100000005");
        assertEquals(1, out[2], "lane 0: 0 + (~0 + 1) carries out");
        assertEquals(-6, out[3], "lane 0: IMAD.HI's high word of 0 * 3 - 0x600000000");
    }
}
