package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/** FSEL with {@code |a|} and {@code -|a|} (ptxas 13's selects of abs and negated abs): the sign bit alone changes. */
class FloatSelectSignTest {
    @Test
    void absAndNegatedAbsChangeTheSignBit() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0xc0000000", // -2.0
                "MOV R5, 0x40400000", // 3.0
                "FSEL R6, |R4|, R5, PT",
                "FSEL R7, -|R5|, R4, PT",
                "FSEL R8, -|R4|, R5, PT",
                "STG.E [R2.64], R6",
                "STG.E [R2.64+0x4], R7",
                "STG.E [R2.64+0x8], R8",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 3);
        assertEquals(0x40000000, out[0]);
        assertEquals(0xc0400000, out[1]);
        assertEquals(0xc0000000, out[2]);
    }
}
