package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * Instructions ptxas 13 writes that the emulator stopped on: {@code UISETP} (uniform compares), {@code USEL}, {@code UPRMT} (the uniform byte permute of video
 * instructions' byte selects) and {@code BRA.CONV URm} (the branch to the fast path of a shuffle or vote whose
 * membermask the threads agree on). One warp: every lane permutes two uniform words with a selector that picks a
 * byte, a sign-replicated byte, and the other word's bytes; lanes 0..15 take the convergent branch, 16..31 do not.
 */
class UniformPermuteAndConvergentBranchTest {
    static int[] run(String sm) throws Exception {
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer(sm, 0, 0x10),
                "UMOV UR4, 0x12f45678",
                "UMOV UR5, 0x9abcdef0",
                "UPRMT UR6, UR4, 0x74a1, UR5",
                "MOV R5, UR6",
                "UISETP.GT.U32.AND UP0, UPT, UR4, 0x20, UPT",
                "UISETP.LT.AND UP1, UPT, UR5, URZ, UPT",
                "UISETP.LT.U32.AND UP2, UPT, UR5, 0x20, UPT",
                "USEL UR8, UR4, 0x20, UP2",
                "USEL UR9, UR8, 0x4, UP0",
                "MOV R7, UR9",
                "@UP0 IADD3 R7, R7, 0x1, RZ",
                "@UP1 IADD3 R7, R7, 0x2, RZ",
                "@UP2 IADD3 R7, R7, 0x4, RZ",
                "ISETP.GE.U32.AND P0, PT, R0, 0x10, PT",
                "MOV R6, 0x1",
                "@!P0 BRA.CONV UR4, `(.L_fast)",
                "MOV R6, 0x2",
                ".L_fast:",
                "STG.E.64 " + SassTextRun.global(sm) + "[R2.64], R5",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R7",
                "EXIT");
        return SassTextRun.runAsWritten(sm, text, 128);
    }

    @Test
    void uniformPermuteAndConvergentBranchRunAsPtxasMeansThem() throws Exception {
        for (String sm : List.of("sm_75", "sm_80", "sm_90")) {
            int[] out = run(sm);
            for (int lane = 0; lane < 32; lane++) {
                // selector 0x74a1: byte 0 <- a.byte1 (0x56), byte 1 <- sign of a.byte2 (0xf4: 0xff),
                // byte 2 <- b.byte0 (0xf0), byte 3 <- b.byte3 (0x9a)
                assertEquals(0x9af0ff56, out[4 * lane], sm + " lane " + lane + " UPRMT");
                assertEquals(lane < 16 ? 1 : 2, out[4 * lane + 1], sm + " lane " + lane + " BRA.CONV");
                // 0x12f45678 > 0x20 unsigned; 0x9abcdef0 < 0 signed, not < 0x20 unsigned
                // USEL: UP2 false gives 0x20, then UP0 true keeps it
                assertEquals(0x20 + 3, out[4 * lane + 2], sm + " lane " + lane + " UISETP, USEL");
            }
        }
    }
}
