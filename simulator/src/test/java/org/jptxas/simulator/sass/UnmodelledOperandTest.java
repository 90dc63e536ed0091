package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.exec.LaunchResult;
import org.junit.jupiter.api.Test;

/**
 * Operands the emulator does not model (a constant bank addressed by a uniform register, {@code ULDC UR4,
 * c[0x3][UR4]}) must stop only the instruction that runs them: the cubin still loads, and the other kernels of its
 * module run.
 */
class UnmodelledOperandTest {
    @Test
    void uniformIndexedConstantBankIsAnOperandThatStopsWhenRun() {
        List<SassOp> ops = AssembledText.ops("sm_80", List.of("ULDC UR4, c[0x3][UR4]", "IADD3 R0, R1, c[0x0][0x10], RZ"),
                Map.of());
        assertEquals(new SassOperand.Other("c[0x3][UR4]"), ops.get(0).operands().get(1));
        // the plain spelling is a constant-bank operand
        assertEquals(new SassOperand.CBank(0, -1, 0x10, false, false), ops.get(1).operands().get(2));
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
                "ULDC UR4, c[0x3][UR4]",
                "EXIT"), out);
        assertArrayEquals(new int[] {7}, out);
        assertFalse(r.completed());
        String why = r.fault().orElseThrow().describe();
        assertTrue(why.contains("ULDC") && why.contains("unimplemented"), why);
    }
}
