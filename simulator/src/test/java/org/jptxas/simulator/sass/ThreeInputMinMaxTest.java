package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * VIMNMX3 (sm_90), ptxas 13's fold of two chained min or max into one instruction: PT selects the minimum, !PT the
 * maximum; no type is .S32. The instructions are the ones ptxas 13 -arch=sm_90 printed (nvdisasm 12.5) for
 * {@code min.u32 t, a, b; min.u32 d, t, c} and its max, s32, immediate, relu and 16x2 variants, e.g.
 * {@code VIMNMX3.U32 R9, R0, R5, R7, PT} (0x000000050009720f), {@code VIMNMX3 R15, R0, 0xfffffffb, R5, !PT}
 * (0xfffffffb000f780f), {@code VIMNMX3.RELU R5, R0, R5, R4, !PT} and {@code VIMNMX3.S16x2 R7, R0, R5, R4, PT}.
 */
class ThreeInputMinMaxTest {
    private static final int A = 0x8000_0005, B = 7, C = 0xffff_fff0;

    @Test
    void minAndMaxOfThreeByType() throws Exception {
        String[] forms = {
            "VIMNMX3.U32 R9, R0, R5, R7, PT",
            "VIMNMX3.U32 R9, R0, R5, R7, !PT",
            "VIMNMX3 R9, R0, R5, R7, PT",
            "VIMNMX3 R9, R0, R5, R7, !PT",
            "VIMNMX3.U32 R9, R0, 0x3e8, R7, PT",
            "VIMNMX3 R9, R0, 0xfffffffb, R5, !PT",
            "VIMNMX3.RELU R9, R0, R5, R7, PT",
            "VIMNMX3.RELU R9, R0, R5, R7, !PT",
            "VIMNMX3.S16x2 R9, R0, R5, R7, PT",
            "VIMNMX3.U16x2 R9, R0, R5, R7, !PT",
        };
        int[] expected = {
            B, // unsigned: 7 < 0x80000005 < 0xfffffff0
            C,
            A, // signed: 0x80000005 is the most negative
            B,
            1000, // min(0x80000005, 1000, 0xfffffff0) unsigned
            B, // max(0x80000005, -5, 7) signed
            0, // relu of the negative minimum
            B,
            // per half, signed: low halves 5, 7, -16 → -16; high halves -32768, 0, -1 → -32768
            0x8000_fff0,
            // per half, unsigned: low 5, 7, 0xfff0 → 0xfff0; high 0x8000, 0, 0xffff → 0xffff
            0xffff_fff0,
        };
        assertArrayEquals(expected, run(forms));
    }

    /** Each form reads R0 = A, R5 = B, R7 = C and stores R9 to the next output word. */
    private static int[] run(String[] forms) throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = new ArrayList<>(List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                String.format("MOV R0, 0x%x", A),
                String.format("MOV R5, 0x%x", B),
                String.format("MOV R7, 0x%x", C)));
        for (int k = 0; k < forms.length; k++) {
            text.add(forms[k]);
            text.add(String.format("STG.E [R2.64+0x%x], R9", 4 * k));
        }
        text.add("EXIT");
        return SassTextRun.run(sm, text, forms.length);
    }
}
