package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A predicate operand printed negated ({@code !PT}) is never one nvdisasm hides: ptxas's {@code IADD3.X R17, ~R4, R5,
 * R3, P1, !PT} (a random program's word, every SM) decodes through the form whose carry-in [79:77] is a field, the
 * same form that reads {@code !P2}, although a rival with a carry-out slot (PT there, hidden) also matches the word.
 * Guarded, the word goes to the generalized forms, where the unguarded learned forms are the evidence that the
 * carry-out's PT is hidden.
 */
class NegatedPtCarryInTest {
    private static final long LO = 0x0000000504117210L, HI = 0x000fe40000ffe503L;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void negatedPtCarryInIsAFieldValue(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        SassInstruction.Known pt = assertInstanceOf(SassInstruction.Known.class, isa.decode(LO, HI));
        assertEquals("IADD3.X R17, ~R4, R5, R3, P1, !PT", SassPrinter.text(pt, 0, null));
        long p2Hi = HI & ~(7L << 13) | 2L << 13; // carry-in [79:77] = P2
        SassInstruction.Known p2 = assertInstanceOf(SassInstruction.Known.class, isa.decode(LO, p2Hi));
        assertEquals("IADD3.X R17, ~R4, R5, R3, P1, !P2", SassPrinter.text(p2, 0, null));
        assertSame(pt.form(), p2.form(), "one form reads both carry-ins");
        long[] back = new SassAssembler(isa).assemble("IADD3.X R17, ~R4, R5, R3, P1, !PT", pt.control(), 0, null);
        assertEquals(SassIsa.hex128(LO, HI), SassIsa.hex128(back[0], back[1]));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void guardedWordHidesTheCarryOutAsUnguarded(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        long guardedLo = LO & ~0xf000L; // @P0 (jptxas's sad.s64 under a guard wrote it)
        SassInstruction.Known k = assertInstanceOf(SassInstruction.Known.class, isa.decode(guardedLo, HI));
        assertEquals("@P0 IADD3.X R17, ~R4, R5, R3, P1, !PT", SassPrinter.text(k, 0, null));
        long[] back = new SassAssembler(isa).assemble("@P0 IADD3.X R17, ~R4, R5, R3, P1, !PT", k.control(), 0, null);
        assertEquals(SassIsa.hex128(guardedLo, HI), SassIsa.hex128(back[0], back[1]));
    }
}
