package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The emulator's decode ignores operand-reuse flags the tables never saw on a form (ptxas's
 * {@code IMAD R2, R0.reuse, R9, 0x5}, words from nvdisasm 12.5), but only where the key's forms print {@code .reuse}.
 */
class SassExecutionDecodeTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void reuseFlagsTheTablesNeverSawStillRun(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        // a.reuse (bit 122) on IMAD with register b and immediate c: no learned form has it
        long lo = 0x0000000500027424L, hi = 0x040fe200078e0209L;
        assertInstanceOf(SassInstruction.Unknown.class, isa.decode(lo, hi), "the disassembler must not guess");
        assertEquals("IMAD R2, R0, R9, 0x5", SassPrinter.text(isa.decodeForExecution(lo, hi), 0, x -> null));
        // the same flag on a word no form explains without it stays unknown
        assertInstanceOf(SassInstruction.Unknown.class, isa.decodeForExecution(0x0000000500027fffL, hi));
    }
}
