package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** Unit tests of the engine parts: control bits, bit fields, float text, lexer, unknown words, range errors. */
class SassCodecTest {
    @Test
    void controlBitsRoundTripThroughWordAndText() {
        // LDG.E R0, desc[UR6][R4.64] on sm_90: wait SB0? no; read/write: 0x000ea2000c1e1900 (hi).
        long hi = 0x000ea2000c1e1900L;
        Control c = Control.fromHi(hi);
        assertEquals(2, c.writeBarrier());
        assertEquals(7, c.readBarrier());
        assertEquals(0, c.waitMask());
        assertEquals(1, c.stall());
        assertTrue(c.yield());
        assertEquals("[B------:R-:W2:Y:S01]", c.text());
        assertEquals(c, Control.parse(c.text()));
        assertEquals(hi & (Control.HI_MASK | Control.OPEX_MASK), c.toHi());
        Control x = new Control(15, false, 5, 0, 63, 9);
        assertEquals("[B012345:R0:W5:-:S15:X9]", x.text());
        assertEquals(x, Control.parse(x.text()));
        assertThrows(IllegalArgumentException.class, () -> new Control(16, false, 7, 7, 0));
        assertThrows(IllegalArgumentException.class, () -> Control.parse("[B------:R-:W-:Y:S4]"));
    }

    @Test
    void fAddAndLop3ReadAnyConstantBank() throws Exception {
        // the corpus showed FADD and LOP3.LUT on sm_80 with bank 0 only, learned as a literal: a __constant__ operand
        // (bank 3) went through a MOV. ptxas 13's words; the bank is [58:54] (nvdisasm, single-bit flips)
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_80").isa());
        Control ctl = Control.parse("[B------:R-:W-:-:S01]");
        long[] fadd = asm.assemble("FADD R5, R4, c[0x3][-0x7000]", ctl, 0, null);
        assertEquals(0x00e4000004057621L, fadd[0]);
        assertEquals(0L, fadd[1] & ((1L << 41) - 1));
        long[] lop = asm.assemble("LOP3.LUT R7, R0, c[0x3][-0x8000], RZ, 0xc0, !PT", ctl, 0, null);
        assertEquals(0x00e0000000077a12L, lop[0]);
        assertEquals(0x000fc800078ec0ffL & ((1L << 41) - 1), lop[1] & ((1L << 41) - 1));
    }

    @Test
    void constantOffsetsOfTheBanksUpperHalfEncodeAsNvdisasmsNegativeOffsets() throws Exception {
        // ptxas 13 writes FADD R5, R0, c[0x3][-0x63c0] for a __constant__ float at byte 40000: the offset field
        // ([53:40], 4-byte units) is signed; the unsigned spelling names the same bits
        SassIsa isa = TestTargets.of("sm_80").isa();
        SassAssembler asm = new SassAssembler(isa);
        long[] unsigned = asm.assemble("MOV R2, c[0x3][0x9c40]", Control.parse("[B------:R-:W-:-:S01]"), 0, null);
        long[] signed = asm.assemble("MOV R2, c[0x3][-0x63c0]", Control.parse("[B------:R-:W-:-:S01]"), 0, null);
        assertArrayEquals(signed, unsigned);
        assertEquals("MOV R2, c[0x3][-0x63c0]", SassPrinter.text(isa.decode(unsigned[0], unsigned[1]), 0, null));
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble("MOV R2, c[0x3][0x10000]",
                Control.parse("[B------:R-:W-:-:S01]"), 0, null));
    }

    @Test
    void ldcByteOffsetsAreSignedLikeNvdisasmReadsThem() throws Exception {
        // nvdisasm 12.5 reads LDC's byte offset ([53:38]) as signed: 0x8000 there prints c[0x0][-0x8000]
        SassIsa isa = TestTargets.of("sm_80").isa();
        SassAssembler asm = new SassAssembler(isa);
        Control c = Control.parse("[B------:R-:W-:-:S01]");
        long[] unsigned = asm.assemble("LDC.S8 R0, c[0x0][0xfffc]", c, 0, null);
        long[] signed = asm.assemble("LDC.S8 R0, c[0x0][-0x4]", c, 0, null);
        assertArrayEquals(signed, unsigned);
        assertEquals("LDC.S8 R0, c[0x0][-0x4]", SassPrinter.text(isa.decode(unsigned[0], unsigned[1]), 0, null));
        assertEquals("LDC.S8 R0, c[0x0][0x7ffc]", SassPrinter.text(isa.decode(
                asm.assemble("LDC.S8 R0, c[0x0][0x7ffc]", c, 0, null)[0], unsigned[1]), 0, null));
    }

    @Test
    void splitBitFieldsExtractAndInsert() {
        BitField f = BitField.parse("23:16,81:34");
        assertEquals(56, f.width());
        assertEquals("23:16,63:34,81:64", f.text());
        long[] w = {0, 0};
        f.insert(0xabcdefL, w);
        assertEquals(0xabcdefL, f.extract(w[0], w[1]));
        assertEquals(0xefL << 16, w[0] & 0xff0000L);
        assertThrows(IllegalArgumentException.class, () -> BitField.parse("7:0").insert(256, new long[2]));
    }

    @Test
    void floatsPrintLikeNvdisasm() {
        assertEquals("0.63661974668502807617", FloatText.format(Float.intBitsToFloat(0x3f22f983)));
        assertEquals("-7.5497894158615963534e-08", FloatText.format(Float.intBitsToFloat(0xb3a22168)));
        assertEquals("105615", FloatText.format(Float.intBitsToFloat(0x47ce4780)));
        // nvdisasm 12.5 raw-mode probes: %.20g below 1e9 in magnitude, %.20e (zeros kept) from 1e9 on.
        assertEquals("999999936", FloatText.format(999999936.0f));
        assertEquals("-999999936", FloatText.format(-999999936.0f));
        assertEquals("1.00000000000000000000e+09", FloatText.format(1e9f));
        assertEquals("-1.00000000000000000000e+09", FloatText.format(-1e9f));
        assertEquals("1.07374182400000000000e+09", FloatText.format(0x1p30f));
        assertEquals("1.84467440737095516160e+19", FloatText.format(0x1p64f));
        assertEquals("1.00000002004087734272e+20", FloatText.format(1e20f));
        assertEquals("1.00000001504746621988e+30", FloatText.format(1e30f));
        assertEquals("8.98846567431157953865e+307", FloatText.format(0x1p1023));
        assertEquals("9.989999671233817935e-05", FloatText.format(9.99e-5f));
        assertEquals("0.00015000000712461769581", FloatText.format(1.5e-4f));
        assertEquals("1.000000003171076851e-30", FloatText.format(1e-30f));
        assertEquals(0x1p64, FloatText.parse(FloatText.format(0x1p64f)));
        assertEquals("+INF", FloatText.format(Double.POSITIVE_INFINITY));
        assertEquals("0.5", FloatText.format(0.5));
        assertEquals(1.0, FloatText.halfToDouble(0x3c00));
        assertEquals(0x3c00, FloatText.doubleToHalfExact(1.0));
    }

    @Test
    void lexerSplitsValuesFromLiterals() {
        SassLexer.Lexed l = SassLexer.lex("@!P0 LDG.E.64 R4, desc[UR6][R2.64+-0x10]");
        assertEquals(List.of("@!", " LDG.E.64 ", ", desc[", "][", ".64", "]"), l.pieces());
        assertEquals(5, l.lexemes().size());
        assertEquals(-0x10, l.lexemes().get(4).number());
        SassLexer.Lexed inf = SassLexer.lex("FSETP.NEU.AND P0, PT, |R0|, +INF , PT");
        assertEquals("FSETP.NEU.AND {}, {}, |{}|, {}, {}", inf.skeleton());
        assertEquals("+INF ", inf.lexemes().get(3).text());
    }

    @Test
    void decodesKnownWordsAndMarksUnknownOnes() {
        SassIsa isa = TestTargets.of("sm_90").isa();
        SassInstruction ldc = isa.decode(0x00000a00ff017b82L, 0x000fe20000000800L);
        assertEquals("LDC R1, c[0x0][0x28]", SassPrinter.text(ldc, 0, null));
        SassInstruction.Known k = assertInstanceOf(SassInstruction.Known.class, ldc);
        assertEquals(new SassInstruction.Operand.Value(SlotKind.GPR, 1), k.operands().get(0));
        SassInstruction junk = isa.decode(0xfffffffffffffdffL, 0x03ffffffffffffffL);
        assertInstanceOf(SassInstruction.Unknown.class, junk);
        assertTrue(SassPrinter.text(junk, 0, null).startsWith("UNKNOWN 0x"));
    }

    @Test
    void binary64SignallingNanPrintsSnanAsNvdisasmDoes() {
        // nvdisasm 12.5 (sm_75 raw words): 0x7ff283db in the high half is a signalling NaN, printed +SNAN; the quiet
        // 0x7ffa83db prints +QNAN; a 32-bit signalling NaN is widened and quieted (MUFU.COS R3, +QNAN of 0x7f800001)
        SassIsa isa = TestTargets.of("sm_75").isa();
        SassInstruction dsetp = isa.decode(0x7ff283db9400742aL, 0x000fe20005dc5400L);
        assertEquals("DSETP.NE.OR P6, P5, R148, +SNAN , !P3", SassPrinter.text(dsetp, 0, null));
        assertEquals("-SNAN", FloatText.formatBinary64(0xfff0000100000000L));
        assertEquals("+QNAN", FloatText.formatBinary64(0x7ffa83db00000000L));
        assertEquals("+QNAN", FloatText.format(Float.intBitsToFloat(0x7f800001)));
        SassAssembler asm = new SassAssembler(isa);
        long[] back = asm.assemble("DSETP.NE.OR P6, P5, R148, +SNAN , !P3", Control.parse("[B------:R-:W-:Y:S01]"), 0,
                null);
        assertEquals("DSETP.NE.OR P6, P5, R148, +SNAN , !P3", SassPrinter.text(isa.decode(back[0], back[1]), 0, null));
    }

    @Test
    void assemblerRoundTripsAndRejectsValuesThatDoNotFit() {
        SassIsa isa = TestTargets.of("sm_90").isa();
        SassAssembler asm = new SassAssembler(isa);
        long[] w = asm.assemble("[B------:R-:W-:Y:S01] /*0000*/ LDC R1, c[0x0][0x28] ;", 0, null);
        assertArrayEquals(new long[] {0x00000a00ff017b82L, 0x000fe20000000800L & ~0L}, new long[] {w[0], w[1] | 0});
        assertEquals("[B------:R-:W-:Y:S01]", Control.fromHi(w[1]).text());
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble("LDC R1, c[0x0][0x12345]", 0, null));
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble("LDC R1, c[0x0][0x28", 0, null));
        assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble("FROB R1, R2", 0, null));
    }

    /** nvdisasm rejects the Y bit with stall 0 or 12..15 for every instruction class (probed sm_75 … sm_90). */
    @Test
    void assemblerRejectsIllegalSchedulingValues() {
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_80").isa());
        for (int stall = 0; stall < 16; stall++) {
            String text = String.format("[B------:R-:W-:Y:S%02d] /*0000*/ BRA `(.L_x_0) ;", stall);
            String plain = String.format("[B------:R-:W-:-:S%02d] /*0000*/ BRA `(.L_x_0) ;", stall);
            assertEquals(stall >= 1 && stall <= 11, Control.yieldAllowed(stall));
            if (Control.yieldAllowed(stall)) {
                asm.assemble(text, 0, name -> 0);
            } else {
                assertThrows(SassAssembler.AssemblyException.class, () -> asm.assemble(text, 0, name -> 0), text);
            }
            asm.assemble(plain, 0, name -> 0);
        }
    }

    @Test
    void aFieldPrintedTwiceTakesOneValue() {
        // BAR.SYNC R4, R4 (key 0x31d): one register holds barrier and count; nvdisasm prints it twice
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_80").isa());
        long[] w = asm.assemble("BAR.SYNC R4, R4", Control.parse("[B------:R-:W-:-:S05]"), 0, null);
        assertEquals(0x0000000400000000L, w[0] & 0xff00000000L);
        assertThrows(SassAssembler.AssemblyException.class,
                () -> asm.assemble("BAR.SYNC R4, R5", Control.parse("[B------:R-:W-:-:S05]"), 0, null));
    }

    /**
     * A skeleton no form has is answered from the assembler's memory the second time, with the same message (naming
     * the new text); a skeleton some form has, or a hinted mnemonic, still encodes after a formless one.
     */
    @Test
    void aFormlessSkeletonFailsAlikeEveryTime() {
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_80").isa());
        for (int round = 0; round < 2; round++) {
            for (String text : List.of("IADD3 R1, R2, R3, R4, R5, R6, R7", "IADD3 R7, R8, R9, R10, R11, R12, R13", "FROB R1, R2")) {
                SassAssembler.AssemblyException e = assertThrows(SassAssembler.AssemblyException.class,
                        () -> asm.assemble(text, 0, null), text);
                assertEquals("no sm_80 encoding form for '" + text + "'", e.getMessage());
            }
            long[] w = asm.assemble("IADD3 R1, R2, R3, RZ", 0, null);
            assertArrayEquals(new SassAssembler(TestTargets.of("sm_80").isa()).assemble("IADD3 R1, R2, R3, RZ", 0, null), w);
            asm.assemble("LDG.E.EL.U8 R0, [R2.64]", 0, null);
        }
    }
}
