package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * ptxas 13's words for set.{cmp}.{bool}.f32.f32 (FSET.BF), abs.f16/abs.bf16 (HADD2/HFMA2.BF16_V2 with an
 * {@code |R|.H0_H0} operand: the bars close before the half selector) and cvt.sat.f32.f16 (HADD2.F32.SAT).
 */
class FloatSetAndAbsHalfOperandTest {
    private static int[] run(String sm, List<String> body, int words) throws Exception {
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = new java.util.ArrayList<>(List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4)));
        text.addAll(body);
        for (int i = 0; i < words; i++) {
            text.add(i == 0 ? "STG.E [R2.64], R10" : String.format("STG.E [R2.64+0x%x], R%d", 4 * i, 10 + i));
        }
        text.add("EXIT");
        return SassTextRun.run(sm, text, words);
    }

    @Test
    void floatSetWritesOneOrAllOnesCombinedWithThePredicate() throws Exception {
        int[] out = run("sm_80", List.of(
                "MOV R4, 0x3f800000", // 1.0
                "MOV R5, 0x40000000", // 2.0
                "MOV R6, 0x7fc00000", // NaN
                "ISETP.NE.AND P0, PT, RZ, RZ, PT", // false
                "FSET.BF.LT.AND R10, R4, R5, PT",
                "FSET.BF.GT.AND R11, R4, R5, PT",
                "FSET.BF.LT.AND R12, R4, R5, P0",
                "FSET.BF.GT.OR R13, R4, R5, !P0",
                "FSET.BF.LTU.AND R14, R4, R6, PT",
                "FSET.BF.LT.AND R15, R4, R6, PT",
                "FSET.BF.LT.XOR R16, R4, R5, PT",
                "FSET.BF.NUM.AND R17, R4, R5, !PT"), 8);
        assertEquals(0x3f800000, out[0]);
        assertEquals(0, out[1]);
        assertEquals(0, out[2]);
        assertEquals(0x3f800000, out[3]);
        assertEquals(0x3f800000, out[4], "unordered compare holds for NaN");
        assertEquals(0, out[5], "ordered compare fails for NaN");
        assertEquals(0, out[6], "true XOR true");
        assertEquals(0, out[7], "AND with !PT");
    }

    @Test
    void absoluteHalfOperandWithSelector() throws Exception {
        int[] out = run("sm_80", List.of(
                "MOV R4, 0x3c00c200", // high 1.0, low -3.0 (f16)
                "MOV R5, 0x3f80c040", // high 1.0, low -3.0 (bf16)
                "HADD2 R10, |R4|.H0_H0, -RZ.H0_H0",
                "HADD2.FTZ R11, |R4|.reuse.H0_H0, -RZ.H0_H0",
                "HFMA2.BF16_V2 R12, -RZ.H0_H0, RZ.H0_H0, |R5|.H0_H0",
                "HADD2.F32.SAT R13, R4.H0_H0, -RZ.H0_H0",
                "HADD2.F32.SAT R14, -RZ, R4.H1_H1",
                "HADD2.F32.SAT R15, |R4|.H0_H0, -RZ.H0_H0"), 6);
        assertEquals(0x42004200, out[0]);
        assertEquals(0x42004200, out[1]);
        assertEquals(0x40404040, out[2]);
        assertEquals(0, out[3], "-3 saturates to 0");
        assertEquals(0x3f800000, out[4], "1 stays 1");
        assertEquals(0x3f800000, out[5], "3 saturates to 1");
    }
}
