package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
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

/**
 * The padded shared index of the SDK's scan as ptxas computes it: {@code x + ((x - 1) >> 4)} as one LEA.HI.SX32,
 * the byte address in 32 bits though PTX forms it in 64, and the loop latch's exit test above the guarded body.
 */
class AddressChainIdiomsTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private static String text(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (BasicBlock b : f.blocks()) {
            sb.append(b).append(":\n");
            for (Instr in : b.instrs()) {
                sb.append(in).append('\n');
            }
        }
        return sb.toString();
    }

    private static void optimize(FunctionBody f) {
        OptPipeline.forLevel(3).encodableWhen(in -> true).verifying(true)
                .run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
    }

    /** {@code shared[x + ((x - 1) >> 4)] = x} with the address {@code mul.wide} onto a zero 64-bit base. */
    private static FunctionBody paddedStore(boolean highWordRead) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg xm1 = f.newVirtual(RegFile.R, 1);
        Reg sh = f.newVirtual(RegFile.R, 1);
        Reg idx = f.newVirtual(RegFile.R, 1);
        Reg base = f.newVirtual(RegFile.R, 2);
        Reg addr = f.newVirtual(RegFile.R, 2);
        List<Instr> l = b.instrs();
        l.add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        l.add(ins("IADD3", List.of(), List.of(xm1, Reg.PT, Reg.PT), Src.of(x), Src.of(Imm.ofInt(-1)), Src.of(Reg.RZ)));
        l.add(ins("SHF", List.of("R", "S32", "HI"), List.of(sh), Src.of(Reg.RZ), Src.of(Imm.ofInt(4)), Src.of(xm1)));
        l.add(ins("IADD3", List.of(), List.of(idx, Reg.PT, Reg.PT), Src.of(x), Src.of(sh), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(base.component(0)), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(base.component(1)), Src.of(Reg.RZ)));
        l.add(ins("IMAD_WIDE", List.of(), List.of(addr), Src.of(idx), Src.of(Imm.ofInt(4)), Src.of(base)));
        l.add(ins("STS", List.of(), List.of(), Src.of(Addr.of(addr.component(0), 0)), Src.of(x)));
        if (highWordRead) {
            l.add(ins("STS", List.of(), List.of(), Src.of(Addr.of(Reg.RZ, 0)), Src.of(addr.component(1))));
        }
        l.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void aSignedShiftFeedingAnAddIsOneLeaHiSx32() {
        FunctionBody f = paddedStore(false);
        optimize(f);
        String out = text(f);
        assertTrue(out.contains("LEA.HI.SX32 ") && out.contains(", 0x1c"), out);
        assertFalse(out.contains("SHF"), out);
    }

    /**
     * {@code p[tid + n]} with {@code p} a 64-bit parameter: {@code cvt.s64.s32} (MOV of the low half, SHF of the sign)
     * then {@code add.s64} (IADD3 / IADD3.X); {@code signReadAgain} stores the sign word too.
     */
    private static FunctionBody signExtendedIndex(boolean signReadAgain) {
        return signExtendedIndex(signReadAgain, false);
    }

    /** {@code rewrittenAfter}: the index is written twice, the second time between its extension and the add. */
    private static FunctionBody signExtendedIndex(boolean signReadAgain, boolean rewrittenAfter) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg i = f.newVirtual(RegFile.R, 1);
        Reg wide = f.newVirtual(RegFile.R, 2);
        Reg addr = f.newVirtual(RegFile.R, 2);
        Reg carry = f.newVirtual(RegFile.P, 1);
        List<Instr> l = b.instrs();
        l.add(ins("S2R", List.of(), List.of(tid), Src.of(new SpecialReg("SR_TID.X"))));
        l.add(ins("IADD3", List.of(), List.of(i, Reg.PT, Reg.PT), Src.of(tid), Src.of(CBank.of(0, 0x168)),
                Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(wide.component(0)), Src.of(i)));
        l.add(ins("SHF", List.of("R", "S32", "HI"), List.of(wide.component(1)), Src.of(Reg.RZ), Src.of(Imm.ofInt(31)),
                Src.of(i)));
        if (rewrittenAfter) {
            l.add(ins("IADD3", List.of(), List.of(i, Reg.PT, Reg.PT), Src.of(i), Src.of(Imm.ofInt(1)), Src.of(Reg.RZ)));
        }
        l.add(ins("IADD3", List.of(), List.of(addr.component(0), carry, Reg.PT), Src.of(wide.component(0)),
                Src.of(CBank.of(0, 0x160)), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of("X"), List.of(addr.component(1), Reg.PT, Reg.PT), Src.of(wide.component(1)),
                Src.of(CBank.of(0, 0x164)), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(addr, 0)), Src.of(tid)));
        if (signReadAgain) {
            l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(addr, 4)), Src.of(wide.component(1))));
        }
        if (rewrittenAfter) {
            l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(addr, 8)), Src.of(i)));
        }
        l.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void aSignExtensionAddedToAPointerIsOneLeaHiXSx32() {
        FunctionBody f = signExtendedIndex(false);
        optimize(f);
        String out = text(f);
        assertTrue(out.contains("LEA.HI.X.SX32 ") && out.contains(", 0x1, "), out);
        assertFalse(out.contains("SHF") || out.contains("MOV "), out);
    }

    /**
     * The combining pass alone (the pipeline would rename the index's second write): an index written twice, and so
     * not one value everywhere, is still read by LEA.HI.X.SX32 when it is not written between its extension and the
     * add (a loop's counter extended after the loop), and not when it is.
     */
    @Test
    void anIndexWrittenTwiceFusesOnlyWhereItHoldsOneValue() {
        for (boolean between : List.of(false, true)) {
            FunctionBody f = signExtendedIndex(false, between);
            List<Instr> l = f.block(0).instrs();
            Reg i = l.get(1).dsts().get(0);
            if (!between) {
                l.add(2, ins("IADD3", List.of(), List.of(i, Reg.PT, Reg.PT), Src.of(i), Src.of(Imm.ofInt(3)),
                        Src.of(Reg.RZ)));
            }
            new InstructionCombining().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
            String out = text(f);
            assertEquals(!between, out.contains("LEA.HI.X.SX32 "), out);
            assertEquals(between, out.contains("SHF.R.S32.HI "), out);
        }
    }

    /** {@code t + t} of a sign-extended {@code t}: both addends read the sign word, so its SHF stays. */
    @Test
    void aSignExtensionAddedToItselfKeepsItsShift() {
        FunctionBody f = signExtendedIndex(false);
        List<Instr> l = f.block(0).instrs();
        Instr hi = l.stream().filter(in -> in.op().name().equals("IADD3") && in.mods().equals(List.of("X")))
                .findFirst().orElseThrow();
        hi.srcs().set(1, hi.srcs().get(0));
        new InstructionCombining().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
        String out = text(f);
        assertTrue(out.contains("SHF.R.S32.HI ") && out.contains("IADD3.X "), out);
        assertFalse(out.contains("LEA.HI.X"), out);
    }

    @Test
    void aSignWordReadElsewhereKeepsItsShift() {
        FunctionBody f = signExtendedIndex(true);
        optimize(f);
        String out = text(f);
        assertTrue(out.contains("SHF.R.S32.HI ") && out.contains("IADD3.X "), out);
        assertFalse(out.contains("LEA.HI.X"), out);
    }

    @Test
    void aWideMultiplyWhoseHighWordIsUnreadIsThirtyTwoBit() {
        // the pass is not in the pipeline (see OptPipeline): run it by itself, then clean up as the pipeline would
        FunctionBody f = paddedStore(false);
        new WideMultiplyNarrowing().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
        optimize(f);
        String out = text(f);
        assertTrue(out.contains("IMAD.SHL.U32 "), out);
        assertFalse(out.contains("IMAD_WIDE") || out.contains("IMAD.WIDE"), out);
        assertFalse(out.contains("MOV "), out);
    }

    @Test
    void aReadHighWordKeepsTheWideMultiply() {
        FunctionBody f = paddedStore(true);
        optimize(f);
        String out = text(f);
        assertTrue(out.contains("IMAD_WIDE") || out.contains("IMAD.WIDE"), out);
    }

    /**
     * {@code H: @p BRA J; B: STS; J: n >>= 1; q = n > 0; @q BRA H}: the latch's shift and test move into H (B neither
     * reads n nor writes it), leaving J its branch.
     */
    @Test
    void aLatchExitTestMovesAboveTheGuardedBody() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock h = f.addBlock(null);
        BasicBlock body = f.addBlock(null);
        BasicBlock join = f.addBlock(null);
        BasicBlock exit = f.addBlock(null);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg q = f.newVirtual(RegFile.P, 1);
        entry.instrs().add(ins("S2R", List.of(), List.of(tid), Src.of(new SpecialReg("SR_TID.X"))));
        entry.instrs().add(ins("MOV", List.of(), List.of(n), Src.of(Imm.ofInt(64))));
        h.instrs().add(ins("BAR", List.of("SYNC", "DEFER_BLOCKING"), List.of(), Src.of(Imm.ofInt(0))));
        h.instrs().add(ins("ISETP", List.of("LE", "AND"), List.of(p, Reg.PT), Src.of(n), Src.of(tid), Src.of(Reg.PT)));
        h.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(join.ref())),
                new Guard(p, false), 0));
        body.instrs().add(ins("STS", List.of(), List.of(), Src.of(Addr.of(tid, 0)), Src.of(tid)));
        join.instrs().add(ins("SHF", List.of("R", "S32", "HI"), List.of(n), Src.of(Reg.RZ), Src.of(Imm.ofInt(1)),
                Src.of(n)));
        join.instrs().add(ins("ISETP", List.of("GT", "AND"), List.of(q, Reg.PT), Src.of(n), Src.of(Reg.RZ),
                Src.of(Reg.PT)));
        join.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(h.ref())),
                new Guard(q, false), 0));
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        new JoinHoisting().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
        String out = text(f);
        assertEquals(1, join.instrs().size(), out);
        assertTrue(h.instrs().get(h.instrs().size() - 2).toString().startsWith("ISETP.GT"), out);
        assertTrue(h.last().toString().startsWith("@"), out);
    }
}
