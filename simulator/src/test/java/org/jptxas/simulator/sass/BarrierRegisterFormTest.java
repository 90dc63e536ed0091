package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * BAR with its id and thread count in one register, as ptxas 13 writes {@code bar.sync a, b} and {@code barrier.red}
 * with register operands: the id in bits 0-15, the count in bits 16-27 ({@code BAR.SYNC R4, R4}). One warp of 32
 * threads; after an immediate id, the count register holds the count itself. Lanes 0..9 set the reduction's predicate.
 */
class BarrierRegisterFormTest {
    @Test
    void packedIdAndCountSynchronizeAndReduce() throws Exception {
        for (String sm : List.of("sm_80", "sm_90")) {
            int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
            List<String> text = List.of(
                    "S2R R0, SR_TID.X",
                    SassTextRun.pointer(sm, 0, 0x10),
                    "ISETP.GE.U32.AND P0, PT, R0, 0xa, PT",
                    "MOV R4, 0x200003", // barrier 3, 32 threads
                    "BAR.SYNC.DEFER_BLOCKING R4, R4",
                    "MOV R6, 0x20", // after an immediate id the register holds the count itself
                    "BAR.SYNC.DEFER_BLOCKING 0x1, R6",
                    "BAR.RED.POPC.DEFER_BLOCKING R4, R4, !P0",
                    "B2R.RESULT R5",
                    "BAR.RED.AND.DEFER_BLOCKING R4, R4, !P0",
                    "B2R.RESULT R6",
                    "BAR.RED.OR.DEFER_BLOCKING R4, R4, !P0",
                    "B2R.RESULT R7",
                    "STG.E.64 " + SassTextRun.global(sm) + "[R2.64], R5",
                    "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R7",
                    "BAR.ARV R4, R4",
                    "EXIT");
            int[] out = SassTextRun.run(sm, text, 128);
            for (int lane = 0; lane < 32; lane++) {
                assertEquals(10, out[4 * lane], sm + " lane " + lane + " BAR.RED.POPC");
                assertEquals(0, out[4 * lane + 1], sm + " lane " + lane + " BAR.RED.AND");
                assertEquals(1, out[4 * lane + 2], sm + " lane " + lane + " BAR.RED.OR");
            }
        }
    }
}
