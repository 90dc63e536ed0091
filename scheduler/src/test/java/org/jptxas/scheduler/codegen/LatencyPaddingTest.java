package org.jptxas.scheduler.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.ori.target.Target;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/**
 * A fixed latency longer than one stall (HMMA.16816: 24 cycles; a stall is at most 15) read by the very next
 * instruction: the pass puts a NOP before the reader so that the stalls between them cover the latency, as ptxas
 * pads; code without such a distance gets no NOP.
 */
class LatencyPaddingTest {
    private static List<CodeLine> control(String... text) {
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_80").isa());
        return LatencyControlPass.of(TestTargets.of("sm_80")).apply(
                java.util.Arrays.stream(text).map(t -> CodeLine.of(asm.select(t, 0, label -> 0))).toList(),
                Target.of("sm_80"));
    }

    @Test
    void aReaderRightAfterAnHmmaGetsANopBeforeIt() {
        List<CodeLine> out = control("HMMA.16816.F32 R8, R16, R2, R12", "MOV R0, R8", "EXIT");
        assertEquals(List.of("HMMA.16816.F32 R8, R16, R2, R12", "NOP", "MOV R0, R8", "EXIT"),
                out.stream().map(CodeLine::text).toList());
        int distance = out.get(0).control().stall() + out.get(1).control().stall();
        assertTrue(distance >= 24, "stalls between the HMMA and its reader: " + distance);
    }

    @Test
    void independentCodeIsNotPadded() {
        List<CodeLine> out = control("HMMA.16816.F32 R8, R16, R2, R12", "MOV R0, R1", "EXIT");
        assertEquals(3, out.size());
    }
}
