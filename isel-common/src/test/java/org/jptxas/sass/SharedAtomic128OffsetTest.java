package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sm_90's shared 128-bit atomics have a [R] form and a [R+offset] form with the same fixed bits: the former's mask fixes
 * the offset field at zero (sm90.json), so both spellings assemble and decode back (without it every such word decoded
 * as ambiguous). nvdisasm 12.5 prints these words the same way.
 */
class SharedAtomic128OffsetTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "sm_90|ATOMS.EXCH.128 R4, [R0], R4",
        "sm_90|ATOMS.EXCH.128 R4, [R0+0x10], R8",
        "sm_90|ATOMS.CAS.128 R4, [R0], R8, R12",
        "sm_90|ATOMS.CAS.128 R4, [R2+0x20], R8, R12",
    })
    void assemblesAndDecodesBack(String sm, String text) {
        SassIsa isa = TestTargets.of(sm).isa();
        long[] w = new SassAssembler(isa).assemble(text, new Control(0, false, 0, 0, 0), 0, null);
        SassInstruction inst = isa.decode(w[0], w[1]);
        assertInstanceOf(SassInstruction.Known.class, inst, text);
        assertEquals(text, SassPrinter.text(inst, 0, null));
    }
}
