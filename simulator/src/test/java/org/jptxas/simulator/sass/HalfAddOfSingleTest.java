package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * sm_75's {@code HADD2 Rd, Ra.F32, -RZ.H0_H0}, ptxas 13's cvt.rz(.sat).f16.f32: the f32 source narrowed toward zero
 * into both halves (.SAT clamping to [0, 1] first).
 */
class HalfAddOfSingleTest {
    @Test
    void narrowsTowardZeroIntoBothHalves() throws Exception {
        List<String> text = new ArrayList<>(List.of(
                SassTextRun.pointer("sm_75", 0, 0),
                "MOV R4, 0x3f801800", // 1 + 0.75 * 2^-10: to nearest 0x3c01, toward zero 0x3c00
                "MOV R5, 0x49742400", // 1e6: past the largest half, toward zero 65504
                "MOV R6, 0xbf801800",
                "MOV R7, 0x40000000",
                "HADD2 R20, R4.F32, -RZ.H0_H0",
                "HADD2 R21, R5.F32, -RZ.H0_H0",
                "HADD2 R22, R6.F32, -RZ.H0_H0",
                "HADD2.SAT R23, R7.F32, -RZ.H0_H0",
                "HADD2.SAT R24, R6.F32, -RZ.H0_H0"));
        for (int i = 0; i < 5; i++) {
            // sm_75 spells a 64-bit global address without .64
            text.add(String.format("STG.E.SYS [R2%s], R%d", i == 0 ? "" : String.format("+0x%x", 4 * i), 20 + i));
        }
        text.add("EXIT");
        assertArrayEquals(new int[] {0x3c003c00, 0x7bff7bff, 0xbc00bc00, 0x3c003c00, 0},
                SassTextRun.run("sm_75", text, 5));
    }
}
