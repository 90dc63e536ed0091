package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * f32 folding: MUFU.LG2/EX2 of constants to the bits ptxas 13 writes for them (measured: its SASS for lg2.approx.f32
 * and ex2.approx.f32 of immediates), FADD/FMUL rounding to nearest, FSETP's ordered and unordered compares.
 */
class FloatFolderTest {
    private static final Reg D = Reg.RZ;

    private static Long fold(String op, List<String> mods, float... xs) {
        Src[] srcs = new Src[xs.length];
        for (int i = 0; i < xs.length; i++) {
            srcs[i] = Src.of(Imm.ofFloat(xs[i]));
        }
        return FloatFolder.fold(TestInstrs.ins(op, mods, List.of(D), srcs), OpInfo::const32);
    }

    private static Boolean fsetp(List<String> mods, float a, float b) {
        Instr in = TestInstrs.ins("FSETP", mods, List.of(D, Reg.PT), Src.of(Imm.ofFloat(a)), Src.of(Imm.ofFloat(b)),
                Src.of(Reg.PT));
        return FloatFolder.foldFsetp(in, OpInfo::const32, OpInfo::constPred);
    }

    @Test
    void log2AndExp2OfConstantsAreTheBitsPtxasWrites() {
        float[] lg2In = {16f, 2f, 3f, 7f, 10f, 0.1f, 1f, Float.POSITIVE_INFINITY};
        long[] lg2Out = {0x40800000L, 0x3f800000L, 0x3fcae00dL, 0x4033abb4L, 0x40549a78L, 0xc0549a78L, 0, 0x7f800000L};
        for (int i = 0; i < lg2In.length; i++) {
            assertEquals(lg2Out[i], fold("MUFU", List.of("LG2"), lg2In[i]), "lg2 " + lg2In[i]);
        }
        float[] ex2In = {3f, 0.5f, -0.5f, 2.5f, 0.1f, 1f};
        long[] ex2Out = {0x41000000L, 0x3fb504f3L, 0x3f3504f3L, 0x40b504f3L, 0x3f892fdfL, 0x40000000L};
        for (int i = 0; i < ex2In.length; i++) {
            assertEquals(ex2Out[i], fold("MUFU", List.of("EX2"), ex2In[i]), "ex2 " + ex2In[i]);
        }
    }

    private static Long convert(String op, List<String> mods, int bits) {
        return FloatFolder.fold(TestInstrs.ins(op, mods, List.of(D), Src.of(Imm.ofInt(bits))), OpInfo::const32);
    }

    /** ptxas 13 (sm_80) writes constants for cvt.rn.f32.s32/.u32 and cvt.rzi.s32/.u32.f32 of constants: these. */
    @Test
    void conversionsOfConstantsAreTheBitsPtxasWrites() {
        assertEquals(0x4b800000L, convert("I2F", List.of(), 16777217), "to nearest even");
        assertEquals(0xc0e00000L, convert("I2F", List.of(), -7));
        assertEquals(0x4f800000L, convert("I2F", List.of("U32"), -1));
        assertEquals(0xfffffffeL, convert("F2I", List.of("TRUNC", "NTZ"), Float.floatToRawIntBits(-2.5f)));
        assertEquals(3000000000L, convert("F2I", List.of("U32", "TRUNC", "NTZ"), Float.floatToRawIntBits(3e9f)));
        // saturated (ptxas writes 0x7fffffff), other roundings, 64-bit and f64 forms: left to the instruction
        assertNull(convert("F2I", List.of("TRUNC", "NTZ"), Float.floatToRawIntBits(3e9f)));
        assertNull(convert("F2I", List.of("TRUNC", "NTZ"), 0x7fc00000));
        assertNull(convert("F2I", List.of("FLOOR", "NTZ"), Float.floatToRawIntBits(-2.5f)));
        assertNull(convert("I2F", List.of("RZ"), 16777217));
        assertNull(convert("I2F", List.of("S64"), 5));
        assertNull(convert("F2I", List.of("F64", "TRUNC"), 5));
    }

    @Test
    void whatPtxasKeepsAsMufuIsNotFolded() {
        assertNull(fold("MUFU", List.of("LG2"), 0f));
        assertNull(fold("MUFU", List.of("LG2"), -1f));
        assertNull(fold("MUFU", List.of("LG2"), 1e-40f), "the unit reads a subnormal as zero");
        assertNull(fold("MUFU", List.of("EX2"), -130f), "a subnormal result");
        assertNull(fold("MUFU", List.of("RCP"), 3f));
    }

    @Test
    void addAndMultiplyRoundToNearestAndFlushOnlyWithFtz() {
        assertEquals(Float.floatToRawIntBits(0.1f + 0.2f) & 0xffffffffL, fold("FADD", List.of(), 0.1f, 0.2f));
        assertEquals(Float.floatToRawIntBits(1e-30f * 1e-10f) & 0xffffffffL, fold("FMUL", List.of(), 1e-30f, 1e-10f));
        assertEquals(0L, fold("FMUL", List.of("FTZ"), 1e-30f, 1e-10f));
        assertNull(fold("FADD", List.of("RZ"), 0.1f, 0.2f), "directed rounding is not modelled");
        assertNull(fold("FADD", List.of(), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY), "a NaN result");
    }

    @Test
    void comparesTellOrderedFromUnordered() {
        float nan = Float.NaN;
        assertEquals(true, fsetp(List.of("GE", "AND"), 4f, 1f));
        assertEquals(false, fsetp(List.of("GE", "AND"), nan, 1f));
        assertEquals(true, fsetp(List.of("GEU", "AND"), nan, 1f));
        assertEquals(false, fsetp(List.of("NE", "AND"), nan, 1f));
        assertEquals(true, fsetp(List.of("NEU", "AND"), nan, 1f));
        assertEquals(true, fsetp(List.of("EQ", "FTZ", "AND"), 1e-40f, 0f));
        assertEquals(false, fsetp(List.of("EQ", "AND"), 1e-40f, 0f));
    }

    @Test
    void negateAndAbsoluteValueActOnTheSignBit() {
        Instr in = TestInstrs.ins("FADD", List.of(), List.of(D), Src.of(Imm.ofFloat(-2f)).negated(),
                new Src(Imm.ofFloat(-3f), true, true, false));
        // 2 + -|-3| = -1
        assertEquals(Float.floatToRawIntBits(-1f) & 0xffffffffL, FloatFolder.fold(in, OpInfo::const32));
    }

    /** lg2.approx.f32 of 16 as the front end lowers it (a scaling for subnormals, MUFU.LG2) folds to a move of 4. */
    @Test
    void aLoweredLog2OfAConstantBecomesAMove() {
        FunctionBody f = new FunctionBody();
        List<Instr> l = f.addBlock(null).instrs();
        Reg p = loadOutputPointer(f, l);
        Reg p0 = f.newVirtual(RegFile.P, 1);
        storeLoweredLog2(f, l, p0, 16f, p, 0);
        l.add(TestInstrs.ins("EXIT", List.of(), List.of()));
        String out = TestInstrs.run(f, "sm_80", new WebSplitting(), new ConstantFolding(), new CopyPropagation(),
                new DeadCodeElimination(), new ConstantFolding(), new CopyPropagation(), new DeadCodeElimination());
        assertTrue(!out.contains("MUFU") && !out.contains("FSETP") && out.contains("0x40800000"), out);
    }

    /**
     * Two lowered lg2.approx.f32 of constants in one block sharing their range-check predicate (as each unrolled copy
     * of a loop has its own check of one predicate register, which web splitting leaves whole): each check's guard
     * folds from the compare before it in the block, so both fold to moves.
     */
    @Test
    void aRangeCheckPredicateDefinedTwiceFoldsItsGuardsInTheBlock() {
        FunctionBody f = new FunctionBody();
        List<Instr> l = f.addBlock(null).instrs();
        Reg p = loadOutputPointer(f, l);
        Reg p0 = f.newVirtual(RegFile.P, 1);
        storeLoweredLog2(f, l, p0, 16f, p, 0);
        storeLoweredLog2(f, l, p0, 2f, p, 4);
        l.add(TestInstrs.ins("EXIT", List.of(), List.of()));
        String out = TestInstrs.run(f, "sm_80", new ConstantFolding(), new CopyPropagation(),
                new DeadCodeElimination(), new ConstantFolding(), new CopyPropagation(), new DeadCodeElimination());
        assertTrue(!out.contains("MUFU") && !out.contains("FSETP") && !out.contains("FMUL") && !out.contains("FADD")
                && out.contains("0x40800000") && out.contains("0x3f800000"), out);
    }

    /** A 64-bit output pointer read from the parameter bank. */
    private static Reg loadOutputPointer(FunctionBody f, List<Instr> l) {
        Reg p = f.newVirtual(RegFile.R, 2);
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        return p;
    }

    /**
     * lg2.approx.f32 of {@code x} as the front end lowers it, the range check in {@code p0} (a subnormal input is
     * scaled by 2^24 before MUFU.LG2 and the result corrected by -24), stored at {@code [p+offset]}.
     */
    private static void storeLoweredLog2(FunctionBody f, List<Instr> l, Reg p0, float x, Reg p, int offset) {
        Reg xs = f.newVirtual(RegFile.R, 1);
        Reg r = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        l.add(TestInstrs.ins("MOV", List.of(), List.of(xs), Src.of(Imm.ofFloat(x))));
        l.add(TestInstrs.ins("FSETP", List.of("GEU", "AND"), List.of(p0, Reg.PT), new Src(xs, false, true, false),
                Src.of(Imm.ofFloat(Float.MIN_NORMAL)), Src.of(Reg.PT)));
        Instr scale = TestInstrs.ins("FMUL", List.of(), List.of(xs), Src.of(xs), Src.of(Imm.ofFloat(16777216f)));
        scale.setGuard(new Guard(p0, true));
        l.add(scale);
        l.add(TestInstrs.ins("MUFU", List.of("LG2"), List.of(r), Src.of(xs)));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(d), Src.of(r)));
        Instr unscale = TestInstrs.ins("FADD", List.of(), List.of(d), Src.of(r), Src.of(Imm.ofFloat(-24f)));
        unscale.setGuard(new Guard(p0, true));
        l.add(unscale);
        l.add(TestInstrs.ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, offset)), Src.of(d)));
    }
}
