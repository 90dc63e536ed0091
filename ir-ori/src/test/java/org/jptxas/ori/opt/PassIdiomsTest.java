package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** Hand-built Ori as the PTX lowering writes it, and the exact Ori ptxas's idioms say the passes should leave. */
class PassIdiomsTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private static Src s(Object o) {
        return o instanceof Integer i ? Src.of(Imm.ofInt(i)) : Src.of((org.jptxas.ori.ir.Operand) o);
    }

    private static String optimize(FunctionBody body, String sm) {
        OptPipeline.forLevel(3).verifying(true).run(new OriFunction("k", true, 0, body), TestProfiles.of(sm));
        assertTrue(IrVerifier.verify("k", body).isEmpty());
        StringBuilder sb = new StringBuilder();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                sb.append(in).append('\n');
            }
        }
        return sb.toString();
    }

    /** saxpy's bounds check and addressing as lowered: copies, 64-bit parameter pairs, mul.wide + add.s64. */
    private static FunctionBody saxpy() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock body = f.addBlock(null);
        BasicBlock exit = f.addBlock("$L_exit");
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg x = f.newVirtual(RegFile.R, 2);
        Reg cta = f.newVirtual(RegFile.R, 1);
        Reg ntid = f.newVirtual(RegFile.R, 1);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg i = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        List<Instr> e = entry.instrs();
        e.add(ins("MOV", List.of(), List.of(n), s(CBank.of(0, 0x160))));
        e.add(ins("MOV", List.of(), List.of(a), s(CBank.of(0, 0x164))));
        e.add(ins("MOV", List.of(), List.of(x.component(0)), s(CBank.of(0, 0x168))));
        e.add(ins("MOV", List.of(), List.of(x.component(1)), s(CBank.of(0, 0x16c))));
        e.add(ins("S2R", List.of(), List.of(cta), s(new SpecialReg("SR_CTAID.X"))));
        e.add(ins("MOV", List.of(), List.of(ntid), s(CBank.of(0, 0x0))));
        e.add(ins("S2R", List.of(), List.of(tid), s(new SpecialReg("SR_TID.X"))));
        e.add(ins("IMAD", List.of(), List.of(i), s(cta), s(ntid), s(tid)));
        e.add(ins("ISETP", List.of("GE", "U32", "AND"), List.of(p, Reg.PT), s(i), s(n), s(Reg.PT)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(p, false));
        e.add(br);
        Reg xc = f.newVirtual(RegFile.R, 2);
        Reg off = f.newVirtual(RegFile.R, 2);
        Reg addr = f.newVirtual(RegFile.R, 2);
        Reg c = f.newVirtual(RegFile.P, 1);
        Reg v = f.newVirtual(RegFile.R, 1);
        Reg r = f.newVirtual(RegFile.R, 1);
        List<Instr> b = body.instrs();
        b.add(ins("MOV", List.of(), List.of(xc.component(0)), s(x.component(0))));
        b.add(ins("MOV", List.of(), List.of(xc.component(1)), s(x.component(1))));
        b.add(ins("IMAD_WIDE", List.of("U32"), List.of(off), s(i), s(4), s(Reg.RZ)));
        b.add(ins("IADD3", List.of(), List.of(addr.component(0), c, Reg.PT), s(xc.component(0)), s(off.component(0)), s(Reg.RZ)));
        b.add(ins("IADD3", List.of("X"), List.of(addr.component(1), Reg.PT, Reg.PT), s(xc.component(1)),
                s(off.component(1)), s(Reg.RZ), s(c), Src.of(Reg.PT).inverted()));
        b.add(ins("LDG", List.of("E"), List.of(v), s(Addr.of(addr, 0))));
        b.add(ins("FMUL", List.of(), List.of(r), s(v), s(a)));
        b.add(ins("STG", List.of("E"), List.of(), s(Addr.of(addr, 0)), s(r)));
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void saxpyBecomesPtxasShapedOnSm80() {
        assertEquals("""
                S2R %r3, SR_CTAID.X
                S2R %r5, SR_TID.X
                IMAD %r6, %r3, c[0x0][0x0], %r5
                ISETP.GE.U32.AND %p0, PT, %r6, c[0x0][0x160], PT
                @%p0 EXIT
                IMAD_WIDE.U32 %r9.64, %r6, 0x4, c[0x0][0x168]
                LDG.E %r10, [%r9.64]
                FMUL %r11, %r10, c[0x0][0x164]
                STG.E [%r9.64], %r11
                EXIT
                """, optimize(saxpy(), "sm_80"));
    }

    @Test
    void saxpyReadsConstantsThroughUniformRegistersOnSm90() {
        String out = optimize(saxpy(), "sm_90");
        // No ALU instruction reads a constant bank on sm_90: parameters come through ULDC into uniform registers.
        assertTrue(out.contains("ULDC %ur1, c[0x0][0x0]"), out);
        assertTrue(out.contains("IMAD %r6, %r3, %ur1, %r5"), out);
        assertTrue(out.contains("ISETP.GE.U32.AND %p0, PT, %r6, %ur0, PT"), out);
        // a, read only after the bounds check, is read there (ptxas: ULDC UR6, c[0x0][0x214] before the FMUL)
        assertTrue(out.contains("LDG.E %r10, [%r9.64]\nULDC %ur2, c[0x0][0x164]\nFMUL %r11, %r10, %ur2"), out);
        assertTrue(out.lines().filter(l -> l.contains("c[") && !l.startsWith("ULDC") && !l.startsWith("LDC")).count() == 0, out);
        // the pointer parameter, read by IMAD.WIDE's register pair: one LDC.64 (as ptxas), not two 32-bit loads
        assertTrue(out.contains("LDC.64 %r2.64, c[0x0][0x168]"), out);
        assertTrue(out.contains("@%p0 EXIT"), out);
    }

    @Test
    void logicChainsBecomeOneLop3WithTheComposedTable() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg z = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        b.instrs().add(ins("S2R", List.of(), List.of(x), s(new SpecialReg("SR_TID.X"))));
        b.instrs().add(ins("S2R", List.of(), List.of(y), s(new SpecialReg("SR_TID.Y"))));
        b.instrs().add(ins("S2R", List.of(), List.of(z), s(new SpecialReg("SR_TID.Z"))));
        // t = x ^ y; d = t & z  ->  LOP3 d, x, y, z, (a ^ b) & c = 0x28
        b.instrs().add(ins("LOP3", List.of("LUT"), List.of(t), s(x), s(y), s(Reg.RZ), s(0x3c), Src.of(Reg.PT).inverted()));
        b.instrs().add(ins("LOP3", List.of("LUT"), List.of(d), s(t), s(z), s(Reg.RZ), s(0xc0), Src.of(Reg.PT).inverted()));
        b.instrs().add(ins("STS", List.of(), List.of(), s(Addr.of(Reg.RZ, 0)), s(d)));
        b.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        assertTrue(out.contains("LOP3.LUT %r4, %r0, %r1, %r2, 0x28, !PT"), out);
        assertEquals(6, f.instructionCount(), out);
    }

    @Test
    void sharedAddressArithmeticFoldsIntoTheOffsetAndShiftAddBecomesLea() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg sh = f.newVirtual(RegFile.R, 1);
        Reg base = f.newVirtual(RegFile.R, 1);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg v = f.newVirtual(RegFile.R, 1);
        b.instrs().add(ins("S2R", List.of(), List.of(tid), s(new SpecialReg("SR_TID.X"))));
        b.instrs().add(ins("S2R", List.of(), List.of(base), s(new SpecialReg("SR_TID.Y"))));
        b.instrs().add(ins("SHF", List.of("L", "U32"), List.of(sh), s(tid), s(2), s(Reg.RZ)));
        b.instrs().add(ins("IADD3", List.of(), List.of(a), s(sh), s(base), s(Reg.RZ)));
        Reg a2 = f.newVirtual(RegFile.R, 1);
        b.instrs().add(ins("IADD3", List.of(), List.of(a2), s(a), s(0x80), s(Reg.RZ)));
        b.instrs().add(ins("LDS", List.of(), List.of(v), s(Addr.of(a2, 4))));
        b.instrs().add(ins("STS", List.of(), List.of(), s(Addr.of(a2, 8)), s(v)));
        b.instrs().add(ins("EXIT", List.of(), List.of()));
        assertEquals("""
                S2R %r0, SR_TID.X
                S2R %r2, SR_TID.Y
                LEA %r3, %r0, %r2, 0x2
                LDS %r4, [%r3+0x84]
                STS [%r3+0x88], %r4
                EXIT
                """, optimize(f, "sm_80"));
    }

    /**
     * A weak global load repeated with only register work (here an HMMA) between is loaded once; a store between,
     * or a volatile ({@code STRONG.SYS}) load, keeps the reload.
     */
    @Test
    void repeatedWeakLoadsAreLoadedOnceUntilAStore() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg v1 = f.newVirtual(RegFile.R, 1);
        Reg v2 = f.newVirtual(RegFile.R, 1);
        Reg v3 = f.newVirtual(RegFile.R, 1);
        Reg v4 = f.newVirtual(RegFile.R, 1);
        Reg v5 = f.newVirtual(RegFile.R, 1);
        Reg acc = f.newVirtual(RegFile.R, 2);
        Reg res = f.newVirtual(RegFile.R, 2);
        b.instrs().add(ins("MOV", List.of(), List.of(p.component(0)), s(CBank.of(0, 0x160))));
        b.instrs().add(ins("MOV", List.of(), List.of(p.component(1)), s(CBank.of(0, 0x164))));
        b.instrs().add(ins("LDG", List.of("E"), List.of(v1), s(Addr.of(p, 16))));
        b.instrs().add(ins("MOV", List.of(), List.of(acc.component(0)), s(v1)));
        b.instrs().add(ins("MOV", List.of(), List.of(acc.component(1)), s(v1)));
        b.instrs().add(ins("HMMA", List.of("1688", "F16"), List.of(res), s(acc), s(acc), s(acc)));
        b.instrs().add(ins("LDG", List.of("E"), List.of(v2), s(Addr.of(p, 16))));
        b.instrs().add(ins("LDG", List.of("E", "STRONG", "SYS"), List.of(v3), s(Addr.of(p, 16))));
        b.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(v2)));
        b.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(v3)));
        b.instrs().add(ins("LDG", List.of("E"), List.of(v4), s(Addr.of(p, 16))));
        b.instrs().add(ins("LDG", List.of("E"), List.of(v5), s(Addr.of(p, 16))));
        b.instrs().add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(p, 8)), s(res)));
        b.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(v4)));
        b.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(v5)));
        b.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        // v2 is v1; v3 is volatile and stays; v4 is reloaded after the stores and v5 is v4
        assertEquals(3, out.lines().filter(l -> l.startsWith("LDG")).count(), out);
        assertTrue(out.contains("STG.E [%r0.64], %r1"), out);
        assertTrue(out.contains("LDG.E.STRONG.SYS"), out);
    }

    /**
     * Two accumulating IMMAs as mma.sync lowers them: the accumulator is gathered from the PTX registers, the
     * result scattered back into them, and the first two MMAs start from the same values. ptxas reads one tuple for
     * both starts and the first result as the next accumulator; no copy is left but the one start tuple's gather.
     */
    @Test
    void mmaChainsReadTheirAccumulatorsInPlace() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg c0 = f.newVirtual(RegFile.R, 1);
        Reg c1 = f.newVirtual(RegFile.R, 1);
        Reg e0 = f.newVirtual(RegFile.R, 1);
        Reg e1 = f.newVirtual(RegFile.R, 1);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg start1 = f.newVirtual(RegFile.R, 2);
        Reg start2 = f.newVirtual(RegFile.R, 2);
        Reg d1 = f.newVirtual(RegFile.R, 2);
        Reg d2 = f.newVirtual(RegFile.R, 2);
        Reg acc = f.newVirtual(RegFile.R, 2);
        Reg d3 = f.newVirtual(RegFile.R, 2);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(p.component(0)), s(CBank.of(0, 0x160))));
        i.add(ins("MOV", List.of(), List.of(p.component(1)), s(CBank.of(0, 0x164))));
        i.add(ins("LDG", List.of("E"), List.of(c0), s(Addr.of(p, 0))));
        i.add(ins("LDG", List.of("E"), List.of(c1), s(Addr.of(p, 4))));
        i.add(ins("LDG", List.of("E"), List.of(a), s(Addr.of(p, 8))));
        i.add(ins("MOV", List.of(), List.of(e0), s(c0)));
        i.add(ins("MOV", List.of(), List.of(e1), s(c1)));
        i.add(ins("MOV", List.of(), List.of(start1.component(0)), s(c0)));
        i.add(ins("MOV", List.of(), List.of(start1.component(1)), s(c1)));
        i.add(ins("IMMA", List.of("8816", "S8", "S8"), List.of(d1), s(a), s(a), s(start1)));
        i.add(ins("MOV", List.of(), List.of(start2.component(0)), s(c0)));
        i.add(ins("MOV", List.of(), List.of(start2.component(1)), s(c1)));
        i.add(ins("IMMA", List.of("8816", "U8", "U8"), List.of(d2), s(a), s(a), s(start2)));
        i.add(ins("MOV", List.of(), List.of(e0), s(d1.component(0))));
        i.add(ins("MOV", List.of(), List.of(e1), s(d1.component(1))));
        i.add(ins("MOV", List.of(), List.of(acc.component(0)), s(e0)));
        i.add(ins("MOV", List.of(), List.of(acc.component(1)), s(e1)));
        i.add(ins("IMMA", List.of("8816", "S8", "S8"), List.of(d3), s(a), s(a), s(acc)));
        i.add(ins("MOV", List.of(), List.of(e0), s(d3.component(0))));
        i.add(ins("MOV", List.of(), List.of(e1), s(d3.component(1))));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 16)), s(e0)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 20)), s(e1)));
        i.add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(p, 24)), s(d2)));
        i.add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        List<String> mmas = out.lines().filter(l -> l.startsWith("IMMA")).toList();
        assertEquals(3, mmas.size(), out);
        String start = mmas.get(0).substring(mmas.get(0).lastIndexOf(' ') + 1);
        assertTrue(mmas.get(1).endsWith(" " + start), "one start tuple for both first MMAs:\n" + out);
        String first = mmas.get(0).substring(5, mmas.get(0).indexOf(','));
        first = first.substring(first.indexOf(' ') + 1);
        assertTrue(mmas.get(2).endsWith(" " + first), "the first result is the third MMA's accumulator:\n" + out);
        // no copy remains: the loads write the start tuple, the scattered copies of d1 died with their readers
        assertEquals(0, out.lines().filter(l -> l.startsWith("MOV %r") && !l.contains("c[")).count(), out);
    }

    /** A warp reduction's shuffle as PTX writes it: lane offset and clamp in registers, in-range flag unread. */
    /** {@code st.global.u32 [a], 0} and a zero added in another block: ptxas's {@code STG.E [R2.64], RZ}. */
    @Test
    void zeroConstantsAreReadAsTheZeroRegister() {
        FunctionBody f = new FunctionBody();
        BasicBlock b0 = f.addBlock(null);
        BasicBlock b1 = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg zero = f.newVirtual(RegFile.R, 1);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b0.instrs();
        i.add(ins("MOV", List.of(), List.of(p.component(0)), s(CBank.of(0, 0x160))));
        i.add(ins("MOV", List.of(), List.of(p.component(1)), s(CBank.of(0, 0x164))));
        i.add(ins("MOV", List.of(), List.of(zero), s(0)));
        i.add(ins("LDG", List.of("E"), List.of(x), s(Addr.of(p, 0))));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(zero)));
        b1.instrs().add(ins("IADD3", List.of(), List.of(sum, Reg.PT, Reg.PT), s(x), s(zero), s(x)));
        b1.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(sum)));
        b1.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        assertTrue(out.contains("STG.E [%r0.64+0x4], RZ"), out);
        assertTrue(out.lines().noneMatch(l -> l.startsWith("MOV") && l.endsWith(", 0x0")), out);
    }

    @Test
    void shufflesTakeTheirConstantsAsImmediatesAndWriteUnreadFlagsToPT() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg v = f.newVirtual(RegFile.R, 1);
        Reg lane = f.newVirtual(RegFile.R, 1);
        Reg clamp = f.newVirtual(RegFile.R, 1);
        Reg big = f.newVirtual(RegFile.R, 1);
        Reg flag = f.newVirtual(RegFile.P, 1);
        Reg flag2 = f.newVirtual(RegFile.P, 1);
        Reg got = f.newVirtual(RegFile.R, 1);
        Reg got2 = f.newVirtual(RegFile.R, 1);
        Reg sel = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(p.component(0)), s(CBank.of(0, 0x160))));
        i.add(ins("MOV", List.of(), List.of(p.component(1)), s(CBank.of(0, 0x164))));
        i.add(ins("LDG", List.of("E"), List.of(v), s(Addr.of(p, 0))));
        i.add(ins("MOV", List.of(), List.of(lane), s(16)));
        i.add(ins("MOV", List.of(), List.of(clamp), s(0x1f)));
        i.add(ins("MOV", List.of(), List.of(big), s(40)));
        i.add(ins("SHFL", List.of("BFLY"), List.of(flag, got), s(v), s(lane), s(clamp)));
        i.add(ins("SHFL", List.of("BFLY"), List.of(flag2, got2), s(v), s(big), s(clamp)));
        i.add(ins("SEL", List.of(), List.of(sel), s(got), s(got2), s(flag2)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(sel)));
        i.add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        List<String> shfl = out.lines().filter(l -> l.startsWith("SHFL")).toList();
        assertEquals(2, shfl.size(), out);
        assertTrue(shfl.get(0).startsWith("SHFL.BFLY PT, ") && shfl.get(0).endsWith(", 0x10, 0x1f"), out);
        // 40 does not fit the 5-bit lane field; the read flag stays
        assertTrue(!shfl.get(1).startsWith("SHFL.BFLY PT, ") && shfl.get(1).endsWith(", 0x1f"), out);
        assertTrue(!shfl.get(1).contains("0x28"), out);
    }

    /** {@code bar.arrive %r1, %r2} of moved constants: ptxas's BAR.ARV 0x9, 0x100, an id the barrier count can read. */
    @Test
    void barrierIdAndCountInRegistersBecomeImmediatesWhenKnown() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg id = f.newVirtual(RegFile.R, 1);
        Reg count = f.newVirtual(RegFile.R, 1);
        Reg shifted = f.newVirtual(RegFile.R, 1);
        Reg packed = f.newVirtual(RegFile.R, 1);
        Reg unknown = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(id), s(9)));
        i.add(ins("MOV", List.of(), List.of(count), s(256)));
        i.add(ins("SHF", List.of("L", "U32"), List.of(shifted), s(count), s(16), s(Reg.RZ)));
        i.add(ins("LOP3", List.of("LUT"), List.of(Reg.PT, packed), s(shifted), s(0xfff0000), s(id), s(0xe2),
                Src.of(Reg.PT).inverted()));
        i.add(ins("BAR", List.of("ARV"), List.of(), s(packed), s(packed)));
        i.add(ins("MOV", List.of(), List.of(unknown), s(CBank.of(0, 0x160))));
        i.add(ins("BAR", List.of("SYNC", "DEFER_BLOCKING"), List.of(), s(unknown), s(128)));
        i.add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_90");
        List<String> bars = out.lines().filter(l -> l.startsWith("BAR")).toList();
        assertEquals("BAR.ARV 0x9, 0x100", bars.get(0), out);
        assertTrue(bars.get(1).startsWith("BAR.SYNC.DEFER_BLOCKING %r") && bars.get(1).endsWith(", 0x80"), out);
    }

    /** A stencil's boundary test, {@code x == 0 || y == 0 || x == n - 1}, as or.pred lowers it. */
    @Test
    void orChainsOfComparesAccumulateInTheCompares() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        BasicBlock inner = f.addBlock(null);
        BasicBlock edge = f.addBlock("edge");
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg p1 = f.newVirtual(RegFile.P, 1);
        Reg p2 = f.newVirtual(RegFile.P, 1);
        Reg p3 = f.newVirtual(RegFile.P, 1);
        Reg or1 = f.newVirtual(RegFile.P, 1);
        Reg or2 = f.newVirtual(RegFile.P, 1);
        List<Instr> i = b.instrs();
        i.add(ins("S2R", List.of(), List.of(x), s(new SpecialReg("SR_TID.X"))));
        i.add(ins("S2R", List.of(), List.of(y), s(new SpecialReg("SR_TID.Y"))));
        i.add(ins("MOV", List.of(), List.of(n), s(CBank.of(0, 0x160))));
        i.add(ins("ISETP", List.of("EQ", "AND"), List.of(p1, Reg.PT), s(x), s(Reg.RZ), s(Reg.PT)));
        i.add(ins("ISETP", List.of("EQ", "AND"), List.of(p2, Reg.PT), s(y), s(Reg.RZ), s(Reg.PT)));
        i.add(ins("PLOP3", List.of("LUT"), List.of(or1, Reg.PT), s(p1), s(p2), s(Reg.PT), s(0xfc), s(0)));
        i.add(ins("ISETP", List.of("EQ", "AND"), List.of(p3, Reg.PT), s(x), s(n), s(Reg.PT)));
        i.add(ins("PLOP3", List.of("LUT"), List.of(or2, Reg.PT), s(or1), s(p3), s(Reg.PT), s(0xfc), s(0)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(or2, false));
        i.add(br);
        Reg out0 = f.newVirtual(RegFile.R, 2);
        inner.instrs().add(ins("MOV", List.of(), List.of(out0.component(0)), s(CBank.of(0, 0x168))));
        inner.instrs().add(ins("MOV", List.of(), List.of(out0.component(1)), s(CBank.of(0, 0x16c))));
        inner.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(out0, 0)), s(x)));
        inner.instrs().add(ins("EXIT", List.of(), List.of()));
        edge.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        assertEquals(0, out.lines().filter(l -> l.startsWith("PLOP3")).count(), out);
        assertEquals(2, out.lines().filter(l -> l.startsWith("ISETP.EQ.OR")).count(), out);
        assertEquals(1, out.lines().filter(l -> l.startsWith("ISETP.EQ.AND")).count(), out);
    }

    /**
     * bf16 rounding as nvcc writes it: {@code not.pred} of a compare joined by {@code or.pred}, then a guard joined
     * as {@code a | !b}: the NOT becomes the opposite compare, and both joins accumulate in the compares.
     */
    @Test
    void negatedComparesChainWithoutPlop3() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        BasicBlock inner = f.addBlock(null);
        BasicBlock edge = f.addBlock("edge");
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg odd = f.newVirtual(RegFile.P, 1);
        Reg even = f.newVirtual(RegFile.P, 1);
        Reg notHalf = f.newVirtual(RegFile.P, 1);
        Reg or1 = f.newVirtual(RegFile.P, 1);
        Reg above = f.newVirtual(RegFile.P, 1);
        Reg round = f.newVirtual(RegFile.P, 1);
        List<Instr> i = b.instrs();
        i.add(ins("S2R", List.of(), List.of(x), s(new SpecialReg("SR_TID.X"))));
        i.add(ins("S2R", List.of(), List.of(y), s(new SpecialReg("SR_TID.Y"))));
        i.add(ins("ISETP", List.of("EQ", "AND"), List.of(odd, Reg.PT), s(y), s(1), s(Reg.PT)));
        i.add(ins("PLOP3", List.of("LUT"), List.of(even, Reg.PT), s(odd), s(Reg.PT), s(Reg.PT), s(0xf), s(0)));
        i.add(ins("ISETP", List.of("NE", "AND"), List.of(notHalf, Reg.PT), s(x), s(Integer.MIN_VALUE), s(Reg.PT)));
        i.add(ins("PLOP3", List.of("LUT"), List.of(or1, Reg.PT), s(notHalf), s(even), s(Reg.PT), s(0xfc), s(0)));
        i.add(ins("ISETP", List.of("GT", "U32", "AND"), List.of(above, Reg.PT), s(x), s(Integer.MIN_VALUE), s(Reg.PT)));
        i.add(ins("PLOP3", List.of("LUT"), List.of(round, Reg.PT), s(above), s(or1), s(Reg.PT), s(0xf3), s(0)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(round, false));
        i.add(br);
        Reg out0 = f.newVirtual(RegFile.R, 2);
        inner.instrs().add(ins("MOV", List.of(), List.of(out0.component(0)), s(CBank.of(0, 0x168))));
        inner.instrs().add(ins("MOV", List.of(), List.of(out0.component(1)), s(CBank.of(0, 0x16c))));
        inner.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(out0, 0)), s(x)));
        inner.instrs().add(ins("EXIT", List.of(), List.of()));
        edge.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        assertEquals(0, out.lines().filter(l -> l.startsWith("PLOP3")).count(), out);
        // the or.pred goes into its first input's compare (x != 0x80000000), accumulating the negated odd test
        assertEquals(1, out.lines().filter(l -> l.startsWith("ISETP.NE.OR") && l.contains(", 0x80000000, %p")).count(),
                out);
        assertEquals(1, out.lines().filter(l -> l.startsWith("ISETP.GT.U32.OR") && l.contains(", !")).count(), out);
    }

    /** nvcc's {@code @%p bra $L_3; bra.uni $L_2; $L_3: ...}: one inverted branch, falling through to $L_3. */
    @Test
    void aBranchOverAJumpIsInverted() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        BasicBlock jump = f.addBlock(null);
        BasicBlock near = f.addBlock("near");
        BasicBlock far = f.addBlock("far");
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg a = f.newVirtual(RegFile.R, 2);
        b.instrs().add(ins("S2R", List.of(), List.of(x), s(new SpecialReg("SR_TID.X"))));
        b.instrs().add(ins("MOV", List.of(), List.of(a.component(0)), s(CBank.of(0, 0x160))));
        b.instrs().add(ins("MOV", List.of(), List.of(a.component(1)), s(CBank.of(0, 0x164))));
        b.instrs().add(ins("ISETP", List.of("EQ", "AND"), List.of(p, Reg.PT), s(x), s(Reg.RZ), s(Reg.PT)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(p, false));
        b.instrs().add(br);
        jump.instrs().add(ins("BRA", List.of(), List.of(), s(new BlockLabel(3))));
        near.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(a, 0)), s(x)));
        near.instrs().add(ins("EXIT", List.of(), List.of()));
        far.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(a, 4)), s(x)));
        far.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = optimize(f, "sm_80");
        List<String> branches = out.lines().filter(l -> l.contains("BRA")).toList();
        assertEquals(1, branches.size(), out);
        assertTrue(branches.get(0).startsWith("@!%p"), out);
    }

    @Test
    void constantBranchesFoldAndShortDiamondsBecomePredicated() {
        FunctionBody f = new FunctionBody();
        BasicBlock a = f.addBlock(null);
        BasicBlock then = f.addBlock(null);
        BasicBlock other = f.addBlock(null);
        BasicBlock join = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg q = f.newVirtual(RegFile.P, 1);
        a.instrs().add(ins("S2R", List.of(), List.of(x), s(new SpecialReg("SR_TID.X"))));
        a.instrs().add(ins("ISETP", List.of("LT", "AND"), List.of(q, Reg.PT), s(3), s(4), s(Reg.PT)));
        a.instrs().add(ins("ISETP", List.of("GT", "AND"), List.of(p, Reg.PT), s(x), s(15), s(q)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(p, false));
        a.instrs().add(br);
        then.instrs().add(ins("IADD3", List.of(), List.of(y), s(x), s(1), s(Reg.RZ)));
        then.instrs().add(ins("BRA", List.of(), List.of(), s(new BlockLabel(3))));
        other.instrs().add(ins("IADD3", List.of(), List.of(y), s(x), s(-1), s(Reg.RZ)));
        join.instrs().add(ins("STS", List.of(), List.of(), s(Addr.of(Reg.RZ, 0)), s(y)));
        join.instrs().add(ins("EXIT", List.of(), List.of()));
        assertEquals("""
                S2R %r0, SR_TID.X
                ISETP.GT.AND %p0, PT, %r0, 0xf, PT
                @!%p0 IADD3 %r1, %r0, 0x1, RZ
                @%p0 IADD3 %r1, %r0, 0xffffffff, RZ
                STS [RZ], %r1
                EXIT
                """, optimize(f, "sm_80"));
    }

    /**
     * A device function returns its results in physical registers (the convention's copies before RET): a write of a
     * virtual register its body never reads is dead there as in a kernel, and the copy of a result stays.
     */
    @Test
    void deviceFunctionDropsUnreadVirtualWritesAndKeepsItsResultCopies() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        Reg r0 = f.newVirtual(RegFile.R, 1);
        Reg result = f.newVirtual(RegFile.R, 1);
        Reg unread = f.newVirtual(RegFile.R, 1);
        Reg r4 = Reg.phys(RegFile.R, 4, 1);
        List<Instr> e = entry.instrs();
        e.add(ins("MOV", List.of(), List.of(r0), s(r4)));
        e.add(ins("IADD3", List.of(), List.of(result), s(r0), s(7), s(Reg.RZ)));
        e.add(ins("IADD3", List.of(), List.of(unread), s(r0), s(1), s(Reg.RZ)));
        e.add(ins("MOV", List.of(), List.of(r4), s(result)));
        e.add(ins("RET", List.of(), List.of()));
        new DeadCodeElimination().run(f, new OptContext(TestProfiles.of("sm_80"), "f", false, null));
        assertTrue(entry.instrs().stream().noneMatch(in -> in.dsts().contains(unread)), entry.instrs().toString());
        assertTrue(entry.instrs().stream().anyMatch(in -> in.dsts().contains(result)), entry.instrs().toString());
        assertEquals(4, entry.instrs().size(), entry.instrs().toString());
    }

    /**
     * A read of the upper parts of an eight-register tuple (DMMA.16x8x4's D) is not a read of the register numbered
     * after it: the copies that fill that register stay (they were dropped, and the store read what its register
     * held before).
     */
    @Test
    void readsOfAnEightRegisterTuplesUpperPartsKeepTheNextRegistersWrites() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 2);
        Reg d = f.newVirtual(RegFile.R, 8);
        Reg first = f.newVirtual(RegFile.R, 2);
        Reg last = f.newVirtual(RegFile.R, 2);
        List<Instr> e = entry.instrs();
        e.add(ins("MOV", List.of(), List.of(x.component(0)), s(1)));
        e.add(ins("MOV", List.of(), List.of(x.component(1)), s(2)));
        e.add(ins("DMMA", List.of("16x8x4"), List.of(d), s(x), s(x), s(x)));
        e.add(ins("MOV", List.of(), List.of(first.component(0)), s(d.component(0))));
        e.add(ins("MOV", List.of(), List.of(first.component(1)), s(d.component(1))));
        e.add(ins("MOV", List.of(), List.of(last.component(0)), s(d.component(4))));
        e.add(ins("MOV", List.of(), List.of(last.component(1)), s(d.component(5))));
        e.add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(x, 0)), s(first)));
        e.add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(x, 8)), s(last)));
        e.add(ins("EXIT", List.of(), List.of()));
        new DeadCodeElimination().run(f, new OptContext(TestProfiles.of("sm_90"), "k", true, null));
        assertTrue(entry.instrs().stream().anyMatch(in -> in.dsts().contains(first.component(0))),
                entry.instrs().toString());
        assertEquals(10, entry.instrs().size(), entry.instrs().toString());
    }
}
