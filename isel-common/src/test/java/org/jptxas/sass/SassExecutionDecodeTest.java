package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Operand-reuse flags the tables never saw on a form (ptxas's {@code IMAD R2, R0.reuse, R9, 0x5}, nvdisasm 12.5's
 * text of the word): the disassembler prints them where the key's single-flag forms place the flag bit
 * ({@link ReuseCombinations}), and the emulator's decode ignores them, but only where the key's forms print
 * {@code .reuse}.
 */
class SassExecutionDecodeTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void reuseFlagsTheTablesNeverSawStillRun(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        // a.reuse (bit 122) on IMAD with register b and immediate c: no learned form has it
        long lo = 0x0000000500027424L, hi = 0x040fe200078e0209L;
        assertEquals("IMAD R2, R0.reuse, R9, 0x5", SassPrinter.text(isa.decode(lo, hi), 0, x -> null));
        assertEquals("IMAD R2, R0, R9, 0x5", SassPrinter.text(isa.decodeForExecution(lo, hi), 0, x -> null));
        // the same flag on a word no form explains without it (nvdisasm refuses it) stays unknown
        assertInstanceOf(SassInstruction.Unknown.class, isa.decodeForExecution(0x0000000500027fffL, hi));
        assertInstanceOf(SassInstruction.Unknown.class, isa.decode(0x0000000500027fffL, hi));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void reuseFlagsOfAnOperandNoFormOfTheKeyShowsFlaggedFollowKeysOfTheSameOperands(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        // a's flag (bit 122) on FSET, whose learned forms never print .reuse: the keys of its operand layout agree on
        // that bit (nvdisasm 12.5 prints this word so on sm_75..sm_90; b's bit 123 it prints too, but keys of the
        // layout tie b to 123 or 124, so the decoder leaves that word unknown)
        long lo = 0x000000030c0d720aL, hi = 0x040fe40003804000L;
        assertEquals("FSET.BF.GT.AND R13, R12.reuse, R3, PT", SassPrinter.text(isa.decode(lo, hi), 0, x -> null));
        assertEquals("FSET.BF.GT.AND R13, R12, R3, PT", SassPrinter.text(isa.decodeForExecution(lo, hi), 0, x -> null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void aListingsDecodeOnlyReuseFlagsAssembleBackButNotForCodeGeneration(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler asm = new SassAssembler(isa);
        long lo = 0x0000000500027424L, hi = 0x040fe200078e0209L;
        SassInstruction.Known k = assertInstanceOf(SassInstruction.Known.class, isa.decode(lo, hi));
        String text = SassPrinter.text(k, 0, null);
        assertArrayEquals(new long[] {lo, hi}, asm.assembleListing(text, k.control(), 0, name -> 0));
        // code generation's entry keeps to the combinations ptxas was seen to write
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble(text, k.control(), 0, name -> 0));
    }
}
