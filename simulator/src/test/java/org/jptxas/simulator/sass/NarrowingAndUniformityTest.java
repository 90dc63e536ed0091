package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * Instructions of ptxas 13's code the emulator stopped on once the decoder knew them: {@code I2I.*.S32.SAT}
 * ({@code cvt.sat.{s8,u8,s16,u16}.s32}), {@code R2UR Pd, URd, Ra} (Pd: Ra is the same in every active lane) and
 * {@code BRA.DIV URm} (the membermask's slow path, taken only where the mask's threads are not all converged). One
 * warp; each lane narrows a value around the four ranges' edges, tests a uniform and a lane-dependent register with
 * R2UR, and falls through BRA.DIV on a mask the whole converged warp covers.
 */
class NarrowingAndUniformityTest {
    static final int[] VALUES = {-200, -129, -128, -1, 0, 127, 128, 255, 256, 40000, -40000, 65535, 65536};

    static int[] run(String sm) throws Exception {
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = new ArrayList<>(List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer(sm, 0, 0x40),
                "IMAD.MOV.U32 R4, RZ, RZ, 0x5",
                "R2UR P0, UR4, R4",
                "SEL R5, RZ, 0x1, !P0",
                "R2UR P1, UR5, R0",
                "SEL R6, RZ, 0x1, !P1",
                "MOV R7, 0x1",
                "IMAD.MOV.U32 R16, RZ, RZ, -0x1",
                "R2UR UR6, R16",
                // the whole warp is converged on mask UR6 (every lane): the fast path
                "@!P1 BRA.DIV UR6, `(.L_slow)",
                "MOV R7, 0x2",
                ".L_slow:",
                "STG.E " + SassTextRun.global(sm) + "[R2.64], R5",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x4], R6",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R7",
                "MOV R8, UR4",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0xc], R8",
                "LOP3.LUT R9, R0, 0xf, RZ, 0xc0, !PT",
                // 64-bit compare with an immediate high word, as sm_75's nvdisasm prints it (the PT .EX predicate
                // hidden): (lane, 0) < (0x1, 0) for every lane
                "ISETP.LT.AND.EX P3, PT, RZ, 0x1, PT",
                "SEL R15, RZ, 0x1, !P3",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x20], R15"));
        // R10 = VALUES[lane % 13] by a chain of selects
        text.add("IMAD.MOV.U32 R10, RZ, RZ, 0x0");
        for (int k = 0; k < VALUES.length; k++) {
            text.add(String.format("ISETP.EQ.U32.AND P2, PT, R9, 0x%x, PT", k));
            text.add(String.format("@P2 MOV R10, 0x%x", VALUES[k]));
        }
        text.addAll(List.of(
                "I2I.S8.S32.SAT R11, R10",
                "I2I.U8.S32.SAT R12, R10",
                "I2I.S16.S32.SAT R13, R10",
                "I2I.U16.S32.SAT R14, R10",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x10], R11",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x14], R12",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x18], R13",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x1c], R14",
                "EXIT"));
        return SassTextRun.runAsWritten(sm, text, 512);
    }

    @Test
    void narrowingSaturatesAndR2urTellsUniformValues() throws Exception {
        for (String sm : List.of("sm_75", "sm_80", "sm_90")) {
            int[] out = run(sm);
            for (int lane = 0; lane < 32; lane++) {
                int at = 16 * lane;
                assertEquals(1, out[at], sm + " lane " + lane + ": R2UR of a uniform value");
                assertEquals(0, out[at + 1], sm + " lane " + lane + ": R2UR of the lane index");
                assertEquals(2, out[at + 2], sm + " lane " + lane + ": BRA.DIV of a converged mask falls through");
                assertEquals(5, out[at + 3], sm + " lane " + lane + ": R2UR's uniform register");
                int v = (lane & 0xf) < VALUES.length ? VALUES[lane & 0xf] : 0;
                assertEquals(Math.max(-128, Math.min(127, v)), out[at + 4], sm + " lane " + lane + " S8 of " + v);
                assertEquals(Math.max(0, Math.min(255, v)), out[at + 5], sm + " lane " + lane + " U8 of " + v);
                assertEquals(Math.max(-32768, Math.min(32767, v)), out[at + 6], sm + " lane " + lane + " S16 of " + v);
                assertEquals(Math.max(0, Math.min(65535, v)), out[at + 7], sm + " lane " + lane + " U16 of " + v);
                assertEquals(1, out[at + 8], sm + " lane " + lane + ": ISETP .EX with its PT predicate hidden");
            }
        }
    }
}
