package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.api.Test;

/**
 * VIADD.16x2 (sm_90, ptxas 13's add.{s,u}16x2, e.g. {@code VIADD.16x2 R6, R0, R5} = 0x0000000500067236): two 16-bit
 * lanes added on their own, the low lane's carry dropped, not carried into the high lane.
 */
class PackedIntegerAddTest {
    @Test
    void lanesAddWithoutCarryBetweenThem() throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = new ArrayList<>(List.of(
                SassTextRun.pointer(sm, 0, 0),
                "MOV R0, 0x7fffffff",
                "MOV R5, 0x10003",
                "VIADD.16x2 R9, R0, R5",
                "STG.E " + SassTextRun.global(sm) + "[R2.64], R9",
                "VIADD R9, R0, R5",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x4], R9",
                "EXIT"));
        // lanes: low 0xffff + 3 = 0x0002 (carry dropped), high 0x7fff + 1 = 0x8000; the 32-bit add carries
        assertArrayEquals(new int[] {0x8000_0002, 0x8001_0002}, SassTextRun.runAsWritten(sm, text, 2));
    }
}
