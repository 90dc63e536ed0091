package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jptxas.spi.TestTargets;

/**
 * Field facts the probe's bit-flip step ({@code probe fields}) derives, checked against the bundled tables with words
 * nvdisasm 12.5 read in raw mode ({@code nvdisasm -b SMxx -hex}): absolute call and return targets in 4-byte units
 * (sm_90 splits them: the low 8 bits of the units at [23:16]), and sm_75's generic {@code LD.E [R+off]}, whose
 * signed offset has 32 bits (a 24-bit one prints {@code +0xfffffc}); guarded IMAD aliases, decoded through the
 * generalized guarded forms; the signed IMAD.SHL, through a composed form; and forms of the codegen gap kernel.
 */
class SassFieldFactsTest {
    private static final Control CONTROL = new Control(5, true, 7, 7, 0);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "sm_75|0000123400007943|000fea0003c00000|CALL.ABS.NOINC 0x1234",
        "sm_75|ffffffc014007950|000fea0003e3ffff|RET.ABS.NODEC R20 -0x40",
        "sm_75|fffffffc12077980|000ea2000010e900|LD.E.SYS R7, [R18+-0x4]",
        "sm_90|0000123400167943|000fea0003c00000|CALL.ABS.NOINC 0x123458",
        // guarded IMAD aliases ptxas was only seen to write unguarded (ptxas 13 writes the first for a predicated
        // add.u32 r, a, a); the learned forms alone decode them as UNKNOWN
        "sm_80|0000000102058824|040fe400078e0202|@!P0 IMAD.IADD R5, R2.reuse, 0x1, R2",
        "sm_80|0000000302058824|040fe400078e0203|@!P0 IMAD R5, R2.reuse, 0x3, R3",
        "sm_90|0000000107058824|040fe400078e0207|@!P0 IMAD.IADD R5, R7.reuse, 0x1, R7",
        // the signed IMAD.SHL ptxas never writes (jptxas does, for a signed multiply by a constant power of two):
        // a composed form (modifier tables)
        "sm_86|0000004004007824|001fca00078e02ff|IMAD.SHL R0, R4, 0x40, RZ",
        "sm_80|0000000446467824|000fca00078e02ff|IMAD.SHL R70, R70, 0x4, RZ",
        // forms derived from tools/sass-probe/kernels/codegen_gaps_next.ptx: a borrow with a P1 carry, two negated
        // registers around a (negative) immediate
        "sm_75|8000000706077210|0000000000f3e4ff|IADD3.X R7, P1, R6, ~R7, RZ, P1, !PT",
        "sm_90|8000000706077210|0000000000f3e4ff|IADD3.X R7, P1, R6, ~R7, RZ, P1, !PT",
        "sm_86|ffffedcc5d5e7810|0000000007ffe95c|IADD3 R94, -R93, -0x1234, -R92",
    })
    void decodesPrintsAndAssemblesLikeNvdisasm(String sm, String lo, String hi, String text) {
        SassIsa isa = TestTargets.of(sm).isa();
        long l = Long.parseUnsignedLong(lo, 16), h = Long.parseUnsignedLong(hi, 16);
        SassInstruction inst = isa.decode(l, h);
        assertEquals(text, SassPrinter.text(inst, 0, a -> null));
        long[] back = new SassAssembler(isa).assemble(text, Control.fromHi(h), 0, null);
        assertArrayEquals(new long[] {l, h}, back);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"sm_75|CALL.ABS.NOINC 0x1236", "sm_90|CALL.ABS.NOINC 0x123459"})
    void misalignedTargetsAreRefused(String sm, String text) {
        SassAssembler asm = new SassAssembler(TestTargets.of(sm).isa());
        assertThrows(RuntimeException.class, () -> asm.assemble(text, CONTROL, 0, null));
    }
}
