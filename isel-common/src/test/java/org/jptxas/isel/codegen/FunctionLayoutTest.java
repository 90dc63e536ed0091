package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/** The end of a function's code: the self-branch and the padding NOPs, typed like selected instructions. */
class FunctionLayoutTest {
    @Test
    void selfBranchAndPaddingAreTypedAndPrintedFromTheirInstructions() {
        for (String sm : List.of("sm_75", "sm_90")) {
            SassAssembler asm = new SassAssembler(TestTargets.of(sm).isa());
            CodeLine exit = CodeLine.of(asm.select("EXIT", 0, label -> 0));
            List<CodeLine> code = FunctionLayout.withEnd(List.of(exit, exit, exit), 8, asm.isa());
            assertEquals(0, code.size() * FunctionLayout.INSTRUCTION_BYTES % FunctionLayout.ALIGNMENT, sm);
            assertTrue(code.size() >= 3 + 1 + 8, sm);
            CodeLine self = code.get(3);
            assertEquals("BRA `(" + self.label() + ")", self.text(), sm);
            assertEquals(self.label(), self.op().target(), sm);
            assertTrue(FunctionLayout.isPadding(self), sm);
            for (CodeLine nop : code.subList(4, code.size())) {
                assertEquals("NOP", nop.text(), sm);
                assertEquals("NOP", nop.op().mnemonic(), sm);
                assertTrue(FunctionLayout.isPadding(nop), sm);
            }
            assertFalse(FunctionLayout.isPadding(exit), sm);
        }
    }

    /** Built from the tables without text, the self-branch and the NOP are the instructions their text assembles to. */
    @Test
    void typedEndIsWhatTheAssemblerMakesOfItsText() {
        int targets = 0;
        for (String sm : TestTargets.names()) {
            TargetDescription d = TestTargets.of(sm);
            if (!d.codeGeneration()) {
                continue;
            }
            SassAssembler asm = new SassAssembler(d.isa());
            List<CodeLine> code = FunctionLayout.withEnd(List.of(), 0, d.isa());
            CodeLine self = code.get(0);
            assertEquals(asm.select(self.text(), 0, label -> 0), self.op(), sm);
            assertEquals(asm.select("NOP", 0, label -> 0), code.get(1).op(), sm);
            assertEquals(asm.select("NOP", 0, label -> 0), FunctionLayout.nop(asm.isa()).op(), sm);
            targets++;
        }
        assertTrue(targets >= 5, "targets with code generation: " + targets);
    }
}
