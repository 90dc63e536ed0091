package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * MUFU flushes subnormal inputs and results to zeros of their sign: ptxas's rcp/lg2/sqrt/rsqrt.approx.ftz.f32 are
 * one MUFU each and give PTX's .ftz results only so (a subnormal's reciprocal is +-Inf, its log2 -Inf; the
 * reciprocal of 2^127 is 0). The f64 seeds .RCP64H/.RSQ64H flush f64 subnormals of the upper word the same way, and
 * read -R as the negated f64 (-RZ is -0.0).
 */
class MufuFlushTest {
    @Test
    void subnormalInputsAndResultsAreZeros() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0x00700000", // a positive f32 subnormal (1.03e-38): 1/x would be 9.7e37
                "MOV R5, 0x80700000", // its negative
                "MOV R6, 0x7f000000", // 2^127: 1/x = 2^-127, subnormal
                "MUFU.RCP R8, R4",
                "MUFU.RCP R9, R5",
                "MUFU.LG2 R10, R4",
                "MUFU.RCP R11, R6",
                "MUFU.SQRT R12, R5",
                "MOV R7, 0x00000001", // upper word of the f64 subnormal 2^-1042.x
                "MUFU.RCP64H R13, R7",
                "MUFU.RCP64H R14, -RZ", // ptxas 13's rcp.approx.ftz.f64 of -0.0: -INF
                "STG.E [R2.64], R8",
                "STG.E [R2.64+0x4], R9",
                "STG.E [R2.64+0x8], R10",
                "STG.E [R2.64+0xc], R11",
                "STG.E [R2.64+0x10], R12",
                "STG.E [R2.64+0x14], R13",
                "STG.E [R2.64+0x18], R14",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 7);
        assertEquals(0x7f800000, out[0]); // +Inf
        assertEquals(0xff800000, out[1]); // -Inf
        assertEquals(0xff800000, out[2]); // log2(+0) = -Inf
        assertEquals(0x00000000, out[3]); // 2^-127 flushed
        assertEquals(0x80000000, out[4]); // sqrt(-0) = -0
        assertEquals(0x7ff00000, out[5]); // upper word of +Inf
        assertEquals(0xfff00000, out[6]); // -RZ is -0.0, not an integer 0
    }
}
