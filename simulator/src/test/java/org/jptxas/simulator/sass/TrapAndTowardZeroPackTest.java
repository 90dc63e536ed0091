package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.LaunchResult;
import org.junit.jupiter.api.Test;

/**
 * {@code BPT.TRAP 0x1} (ptxas's trap and brkpt) stops the kernel with a trap; {@code F2FP.PACK_AB.RZ} (cvt.rz.f16x2.f32
 * and bf16x2) packs two f32 rounded toward zero.
 */
class TrapAndTowardZeroPackTest {
    @Test
    void bptTrapIsATrap() throws Exception {
        LaunchResult r = SassTextRun.launch("sm_80", List.of("BPT.TRAP 0x1", "EXIT"), new int[1]);
        assertInstanceOf(Fault.Trap.class, r.fault().orElseThrow());
    }

    @Test
    void packTowardZero() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        // 1 + 2^-10 + 2^-11 + 2^-12 (0x3f803800 in f32) rounds to nearest up (0x3c02 half), toward zero 0x3c01;
        // -(1 + 2^-7 + 2^-8 + 2^-9) in bf16: nearest 0xbf82, toward zero 0xbf81; 1e6 overflows to the largest finite
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0x3f803800",
                "MOV R5, 0xbf81c000",
                "MOV R6, 0x49742400",
                "F2FP.PACK_AB.RZ R7, R4, R6",
                "F2FP.BF16.PACK_AB.RZ R8, R5, R4", // sm_80's spelling of F2FP.BF16.F32.PACK_AB.RZ
                "F2FP.PACK_AB R9, R4, R6",
                "STG.E [R2.64], R7",
                "STG.E [R2.64+0x4], R8",
                "STG.E [R2.64+0x8], R9",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 3);
        assertEquals(0x3c017bff, out[0]);
        assertEquals(0xbf813f80, out[1]);
        assertEquals(0x3c027c00, out[2]);
    }
}
