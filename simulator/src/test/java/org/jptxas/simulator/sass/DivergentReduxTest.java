package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * REDUX inside a divergent branch reduces over the threads that run it (ptxas's warp-aggregated atomics do this:
 * REDUX has no member mask operand), even where the emulator checks warp-synchronous instructions strictly.
 */
class DivergentReduxTest {
    @Test
    void reduxReducesOverTheActiveThreads() throws Exception {
        String sm = "sm_80";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer(sm, 0, 0x4),
                "MOV R5, RZ",
                "ISETP.GE.U32.AND P0, PT, R0, 0x10, PT",
                "@P0 BRA `(.L_skip)",
                "REDUX.SUM UR5, R0",
                "MOV R5, UR5",
                ".L_skip:",
                "STG.E [R2.64], R5",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 32);
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(lane < 16 ? 120 : 0, out[lane], "lane " + lane);
        }
    }
}
