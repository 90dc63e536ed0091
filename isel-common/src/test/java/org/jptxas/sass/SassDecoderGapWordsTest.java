package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Words the decoder once read as UNKNOWN, each with nvdisasm 12.5's text: ptxas 13's own words from the probe kernels
 * {@code sat_add_forms.ptx}, {@code decoder_gaps*.ptx} and {@code form_faults*.ptx} (the forms {@code probe add} learned from them, their slots
 * corrected by {@code table-rules}), and words with other field values (nvdisasm raw mode), which only fields at the
 * right bits read. Each decodes to nvdisasm's text and the text assembles back to the word (control bits aside).
 */
class SassDecoderGapWordsTest {
    @ParameterizedTest(name = "{0} {3}")
    @CsvSource(delimiter = '|', textBlock = """
            sm_75 | 0080000000007a1f | 000fe40000740205 | PLOP3.LUT P2, PT, R0.SIGN, c[0x2] [0x0].SIGN, R5.SIGN, 0x2, 0x0
            sm_80 | 00c0400000017a1f | 000fe40000748005 | PLOP3.LUT P2, PT, R0.SIGN, c[0x3] [0x100].SIGN, R5.SIGN, 0x80, 0x1
            sm_75 | 003fff0000007a1f | 000fe40000740205 | PLOP3.LUT P2, PT, R0.SIGN, c[0x0] [-0x4].SIGN, R5.SIGN, 0x2, 0x0
            sm_90 | 0000000600007c1f | 000fe20008704005 | PLOP3.LUT P0, PT, R0.SIGN, UR6.SIGN, R5.SIGN, 0x40, 0x0
            sm_90 | 0000000900007c1f | 000fe20008709605 | PLOP3.LUT P0, PT, R0.SIGN, UR9.SIGN, R5.SIGN, 0x96, 0x0
            sm_75 | 3c003c0000057430 | 004fd00000000000 | HADD2 R5, R0, 1, 1
            sm_75 | 3800c00000057430 | 004fd00000000000 | HADD2 R5, R0, 0.5, -2
            sm_86 | bc00420000057430 | 004fca0000000000 | HADD2 R5, R0, -1, 3
            sm_90 | 3c003c0000057430 | 004fca0000000000 | HADD2 R5, R0, 1, 1
            sm_75 | 00000808020c73a9 | 00416200001f050a | ATOMG.E.CAS.64.STRONG.CTA PT, R12, [R2+0x8], R8, R10
            sm_75 | 0000100c020e73a9 | 020ea400001f650e | ATOMG.E.CAS.64.STRONG.SYS PT, R14, [R2+0x10], R12, R14
            sm_75 | 007ff80c020e73a9 | 020ea400001f650e | ATOMG.E.CAS.64.STRONG.SYS PT, R14, [R2+0x7ff8], R12, R14
            sm_75 | 000000090c09738c | 00106400000040ff | ATOMS.ADD R9, [R12.X4], R9
            sm_80 | 000000090c09738c | 0010640000004000 | ATOMS.ADD R9, [R12.X4], R9
            sm_75 | 000000040c06738d | 000ea40001808406 | ATOMS.CAST.SPIN.64 R6, [R12.X8], R4, R6
            sm_80 | 000000040c06738d | 000ea40001808406 | ATOMS.CAST.SPIN.64 R6, [R12.X8], R4, R6
            sm_75 | 0000040c0c0b738c | 000ee8000400c0ff | ATOMS.EXCH R11, [R12.X16+0x4], R12
            sm_75 | 0000400c0c0b738c | 000ee8000400c0ff | ATOMS.EXCH R11, [R12.X16+0x40], R12
            sm_80 | 000000000c047984 | 000ea40000008a00 | LDS.64 R4, [R12.X8]
            sm_86 | 1000000000067308 | 000e300000000a00 | MUFU.EX2.F16 R6, R0.H1
            sm_89 | 1000000700097308 | 000e620000002600 | MUFU.TANH.F16 R9, R7.H1
            sm_90 | 1000000000097308 | 000e620000002500 | MUFU.TANH.F16 R9, R0.H1
            sm_86 | 3000000404047240 | 008fe20003a00800 | HMNMX2.BF16_V2 R4, R4.H0_H0, R4.H1_H1, PT
            sm_90 | 3000000404047240 | 008fe20003a00800 | HMNMX2.BF16_V2 R4, R4.H0_H0, R4.H1_H1, PT
            sm_86 | 2000000500007240 | 004fc60007a20800 | HMNMX2.BF16_V2.NAN R0, R0.H0_H0, R5.H0_H0, !PT
            sm_89 | 6000000500007240 | 004fc60007a60a00 | 'HMNMX2.BF16_V2.NAN.XORSIGN R0, |R0|.H0_H0, |R5|.H0_H0, !PT'
            sm_90 | 2000000500007240 | 004fca0003a20800 | HMNMX2.BF16_V2.NAN R0, R0.H0_H0, R5.H0_H0, PT
            sm_86 | ffe00000ff077419 | 004fca0000010202 | SHF.L.U64.HI R7, RZ, R2, 0xffe00000
            sm_86 | 7fe00000ff077419 | 004fca0000010202 | SHF.L.U64.HI R7, RZ, R2, 0x7fe00000
            sm_90 | 0000007f00077906 | 000ea20000202000 | I2F.BF16.U32 R7, 0x7f
            sm_90 | 0001234500057906 | 000ea20000202000 | I2F.BF16.U32 R5, 0x12345
            sm_86 | 3fc0000000057908 | 000fe20000002400 | MUFU.TANH R5, 1.5
            sm_89 | 3f80000000057908 | 000fe20000002000 | MUFU.SQRT R5, 1
            sm_86 | 7fffffff00057912 | 000fe20000301400 | I2F.S64 R5, 0x7fffffff
            sm_89 | c000000000057912 | 000fe20000300800 | I2F.F16.U64 R5, 0xc0000000
            sm_90 | 7fe0000000057912 | 000fe20000302000 | I2F.BF16.U64 R5, 0x7fe00000
            sm_86 | 7ff0000000057911 | 000fe20000300000 | F2I.U8.F64 R5, +INF
            sm_90 | 3ff0000000057911 | 000fe20000300000 | F2I.U8.F64 R5, 1
            sm_90 | ffaede139d447803 | 000fe20000000000 | P2R R68, PR, R157, 0xffaede13
            sm_80 | ffaede139d447803 | 000fe20000000000 | P2R R68, PR, R157, -0x5121ed
            sm_90 | 338ff22c2f2575b2 | 000fe20008000100 | SYNCS.EXCH.64 UR37, [UR47+0x338ff2], UR44
            sm_90 | 000008002f2575b2 | 000fe20008000100 | SYNCS.EXCH.64 UR37, [UR47+0x8], UR0
            sm_90 | 0000006f18b2a38b | 000fe20001990564 | @!P2 ATOM.E.CAST.SPIN.64.MMIO.GPU P4, R178, [R24], R111, R100
            """)
    void decodesToNvdisasmTextAndAssemblesBack(String sm, String lo, String hi, String text) {
        decodesAndAssemblesBack(sm, lo, hi, text, 0);
    }

    /**
     * Words with bits nvdisasm prints nothing for ({@code hidden}, of the high word): ptxas 13 writes varied values in
     * [71:64] of sm_75's ATOMS.ADD{.S32} [R.X16+off] (atom.shared.add), and bit 88 (.SPIN) shows only with CAST on
     * sm_90's ATOM. Each decodes to nvdisasm's text; the text assembles back to the word with those bits zero.
     */
    @ParameterizedTest(name = "{0} {4}")
    @CsvSource(delimiter = '|', textBlock = """
            sm_75 | 000004060600738c | 001fe4000000c0ff | ff      | ATOMS.ADD R0, [R6.X16+0x4], R6
            sm_75 | 000004000005738c | 001e24000000c205 | ff      | ATOMS.ADD.S32 R5, [R0.X16+0x4], R0
            sm_75 | 7ffffc060600738c | 001fe4000000c03f | ff      | ATOMS.ADD R0, [R6.X16+0x7ffffc], R6
            sm_90 | 000000afd0d9b38b | 000fe200011ae5bc | 1000000 | @!P3 ATOM.E.CAS.64.STRONG.GPU P5, R217, [R208], R175, R188
            sm_90 | 000000c38f36a38b | 000fe200011d05b9 | 1000000 | @!P2 ATOM.E.CAS.64.MMIO.GPU P6, R54, [R143], R195, R185
            sm_90 | 000010afd0d9738b | 000fe200011ae1bc | 1000000 | ATOM.E.CAS.STRONG.GPU P5, R217, [R208+0x10], R175, R188
            """)
    void decodesWithHiddenBits(String sm, String lo, String hi, String hidden, String text) {
        decodesAndAssemblesBack(sm, lo, hi, text, Long.parseUnsignedLong(hidden, 16));
    }

    /**
     * Random words nvdisasm 12.5 reads in spellings ptxas never wrote, which the decoder reads through decode-only
     * copies of learned forms (table rules: a hidden PT carry-out of ULEA/LEA/LOP3.LUT, inverted IADD3.X sources with
     * an immediate, sm_90 LDGSTS's RZ base with a fixed offset). Each
     * decodes to nvdisasm's text, and the text assembles back to the word as a listing does (through the decode-only
     * forms). The random words whose text assembles to other bits nvdisasm reads alike (IADD3's one carry-out in
     * [86:84], sm_80 LDGSTS [0x30]'s bit 66) are checked by {@code SassRandomWordsOracleTest} with nvdisasm.
     */
    @ParameterizedTest(name = "{0} {3}")
    @CsvSource(delimiter = '|', textBlock = """
            sm_80 | 000000370e0f7291 | 000fe2000f8e603f | ULEA UR15, UR14, UR55, 0xc
            sm_90 | 000000370e0f7291 | 000fe2000f8e603f | ULEA UR15, UR14, UR55, 0xc
            sm_86 | a440d625249f7811 | 040fe200078e79ff | LEA R159, -R36.reuse, 0xa440d625, 0xf
            sm_80 | 0000002524037211 | 000fe200078e79ff | LEA R3, -R36, R37, 0xf
            sm_90 | 00000011ec557c12 | 000fe2000d8f897e | LOP3.LUT.PAND R85, R236, UR17, R126, 0x89, !P3
            sm_90 | 00000011ec557c12 | 000fe2000d8e897e | LOP3.LUT R85, R236, UR17, R126, 0x89, !P3
            sm_80 | aef437a8213d7810 | 000fe20003ffad90 | IADD3.X R61, ~R33, -0x510bc858, ~R144, PT, !P5
            sm_86 | 105e9015557a3810 | 000fe20003ff8d52 | @P3 IADD3.X R122, ~R85, 0x105e9015, ~R82, PT, !P4
            sm_90 | 0003001020ff7fae | 000fe2000d121a40 | LDGSTS.E.64 [0x30], desc[UR0][R32.64+0x10], !P2
            """)
    void decodesThroughDecodeOnlyForms(String sm, String lo, String hi, String text) {
        roundTrip(sm, lo, hi, text, 0, true); // a listing's text: decode-only forms may assemble it
    }

    /**
     * Words a learned form writes that a more specific decode-only copy reads in the same spelling (IADD3.X's
     * {@code -0x1} with an inverted third source, ptxas 13's word in the sm_86 corpus): the copy does not take them
     * away from the learned form, so jptxas's own text assembles back to them.
     */
    @ParameterizedTest(name = "{0} {3}")
    @CsvSource(delimiter = '|', textBlock = """
            sm_75 | ffffffff23157810 | 00000000017e6c21 | IADD3.X R21, R35, -0x1, ~R33, P2, P3
            sm_80 | ffffffff23157810 | 00000000017e6c21 | IADD3.X R21, R35, -0x1, ~R33, P2, P3
            sm_86 | ffffffff23157810 | 00000000017e6c21 | IADD3.X R21, R35, -0x1, ~R33, P2, P3
            sm_89 | ffffffff23157810 | 00000000017e6c21 | IADD3.X R21, R35, -0x1, ~R33, P2, P3
            """)
    void writtenWordsADecodeOnlyCopyReadsAlikeAssembleBack(String sm, String lo, String hi, String text) {
        SassInstruction d = TestTargets.of(sm).isa().decode(Long.parseUnsignedLong(lo, 16), Long.parseUnsignedLong(hi, 16));
        assertTrue(d instanceof SassInstruction.Known k && k.form().decodeOnly(), sm + ": not read by a decode-only copy");
        decodesAndAssemblesBack(sm, lo, hi, text, 0);
    }

    /**
     * A spelling only a decode-only form has (ULEA without its UPT carry-out before sm_90, whose tables learned it)
     * assembles as a listing's text, never as jptxas's own: code generation writes the learned form's spelling with
     * the carry-out.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_89"})
    void aDecodeOnlySpellingIsNotWritten(String sm) {
        SassAssembler asm = new SassAssembler(TestTargets.of(sm).isa());
        String text = "ULEA UR15, UR14, UR55, 0xc";
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble(text, 0, null));
        assertEquals("000000000f8e603f000000370e0f7291", hex(asm.assembleListing(text, Control.fromHi(0), 0, null)));
        assertEquals("000000000f8e603f000000370e0f7291", hex(asm.assemble("ULEA UR15, UPT, UR14, UR55, 0xc", 0, null)));
    }

    private static String hex(long[] words) {
        return SassIsa.hex128(words[0], words[1]);
    }

    /** The word decodes to {@code text}, which assembles back to it with the bits {@code hidden} (high word) zero. */
    private static void decodesAndAssemblesBack(String sm, String lo, String hi, String text, long hidden) {
        roundTrip(sm, lo, hi, text, hidden, false);
    }

    /** Decodes the word to {@code text} and assembles it back, as a listing's or as jptxas's own text. */
    private static void roundTrip(String sm, String lo, String hi, String text, long hidden, boolean listing) {
        SassIsa isa = TestTargets.of(sm).isa();
        long l = Long.parseUnsignedLong(lo, 16);
        long h = Long.parseUnsignedLong(hi, 16);
        SassInstruction.Known k = assertInstanceOf(SassInstruction.Known.class, isa.decode(l, h));
        assertEquals(text, SassPrinter.text(k, 0, null));
        SassAssembler asm = new SassAssembler(isa);
        long[] back = listing ? asm.assembleListing(text, k.control(), 0, null) : asm.assemble(text, k.control(), 0, null);
        long opex = ~(Control.HI_MASK | Control.OPEX_MASK);
        assertEquals(SassIsa.hex128(l, h & opex & ~hidden), SassIsa.hex128(back[0], back[1] & opex));
    }
}
