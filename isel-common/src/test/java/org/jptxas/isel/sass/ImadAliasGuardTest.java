package org.jptxas.isel.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Guarded IMADs whose alias name ({@link ImadAlias}) ptxas was only seen to write unguarded: ptxas 13 writes
 * {@code @!P0 IMAD.IADD R5, R2, 0x1, R2} for a predicated {@code add.u32 r, a, a}, which the learned forms alone
 * decode as UNKNOWN. The words and their text are nvdisasm 12.5's (raw mode, {@code nvdisasm -b SMxx -hex}).
 */
class ImadAliasGuardTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "sm_80|0000000102058824|040fe400078e0202|@!P0 IMAD.IADD R5, R2.reuse, 0x1, R2",
        "sm_80|0000000302058824|040fe400078e0203|@!P0 IMAD R5, R2.reuse, 0x3, R3",
        "sm_90|0000000107058824|040fe400078e0207|@!P0 IMAD.IADD R5, R7.reuse, 0x1, R7",
    })
    void guardedAliasesDecodePrintAndAssembleLikeNvdisasm(String sm, String lo, String hi, String text) {
        SassIsa isa = SassIsa.forSm(sm);
        long l = Long.parseUnsignedLong(lo, 16), h = Long.parseUnsignedLong(hi, 16);
        SassInstruction inst = isa.decode(l, h);
        assertEquals(text, SassPrinter.text(inst, 0, a -> null));
        assertArrayEquals(new long[] {l, h}, new SassAssembler(isa).assemble(text, Control.fromHi(h), 0, null));
    }
}
