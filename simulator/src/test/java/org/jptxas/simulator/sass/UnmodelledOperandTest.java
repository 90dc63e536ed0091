package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.exec.LaunchResult;
import org.junit.jupiter.api.Test;

/**
 * nvdisasm spells some constant-bank operands of ptxas 13's code in ways the emulator does not model
 * ({@code HADD2 R0, -RZ.H0_H0, c[0x2] [0x0].F32}, {@code PLOP3.LUT P0, PT, R0.SIGN, c[0x2] [0x0].SIGN, ...}). Such an
 * operand must stop only the instruction that runs it: the cubin still loads, and the other kernels of its module run.
 */
class UnmodelledOperandTest {
    @Test
    void spacedOrDecoratedConstantBankIsAnOperandThatStopsWhenRun() {
        SassOp hadd = SassParser.parse(0, "HADD2 R0, -RZ.H0_H0, c[0x2] [0x0].F32", Map.of());
        assertInstanceOf(SassOperand.Other.class, hadd.operands().get(2));
        SassOp plop = SassParser.parse(0, "PLOP3.LUT P0, PT, R0.SIGN, c[0x2] [0x0].SIGN, R7.SIGN, 0x2, 0x0", Map.of());
        assertInstanceOf(SassOperand.Other.class, plop.operands().get(3));
        // the plain spelling is still a constant-bank operand
        SassOp ok = SassParser.parse(0, "IADD3 R0, R1, c[0x0][0x10], RZ", Map.of());
        assertEquals(new SassOperand.CBank(0, -1, 0x10, false, false), ok.operands().get(2));
    }

    @Test
    void codeBeforeItRunsAndTheInstructionStops() throws Exception {
        int params = ConstantBank0Layout.of(Target.of("sm_80")).paramBase();
        int[] out = new int[1];
        LaunchResult r = SassTextRun.launch("sm_80", List.of(
                "MOV R0, 0x7",
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "STG.E [R2.64], R0",
                "HADD2 R0, -RZ.H0_H0, c[0x2] [0x0].F32",
                "EXIT"), out);
        assertArrayEquals(new int[] {7}, out);
        assertFalse(r.completed());
        String why = r.fault().orElseThrow().describe();
        assertTrue(why.contains("HADD2") && why.contains("unimplemented"), why);
    }
}
