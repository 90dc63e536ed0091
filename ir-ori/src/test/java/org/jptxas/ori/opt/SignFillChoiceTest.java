package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/**
 * Which of two sign-extended addends of a 64-bit add becomes LEA.HI.X.SX32 (the other keeps its SHF). ptxas 13
 * (sm_80) on {@code if (p) { a = y + 5; i = tid.x << 1; q[(long) i + (long) a] } else { c = y ^ 7;
 * j = tid.? << 1; q[(long) j + (long) c] }}, each branch extending its own addend first: the first branch fuses
 * {@code a}, the earlier extension; the second fuses {@code j} when it is {@code tid.x << 1}, a value the first
 * branch extended already, and {@code c} when it reads {@code tid.z} (or shifts by another amount, or the first
 * branch does not extend its {@code i}).
 */
class SignFillChoiceTest {
    /**
     * {@code q[(long) (tid << 1) + (long) own]} with {@code own = y op k} extended first, then the branch exits; the
     * register of the add's high half.
     */
    private static Reg extendAndAdd(FunctionBody f, BasicBlock b, Reg y, String op, int k, String tid) {
        Reg own = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg shifted = f.newVirtual(RegFile.R, 1);
        Reg ownWide = f.newVirtual(RegFile.R, 2);
        Reg shiftedWide = f.newVirtual(RegFile.R, 2);
        Reg sum = f.newVirtual(RegFile.R, 2);
        Reg carry = f.newVirtual(RegFile.P, 1);
        List<Instr> l = b.instrs();
        l.add(op.equals("IADD3")
                ? ins("IADD3", List.of(), List.of(own, Reg.PT, Reg.PT), Src.of(y), imm(k), Src.of(Reg.RZ))
                : ins("LOP3", List.of("LUT"), List.of(Reg.PT, own), Src.of(y), imm(k), Src.of(Reg.RZ), imm(0x3c),
                        Src.of(Reg.PT).inverted()));
        l.add(ins("MOV", List.of(), List.of(ownWide.component(0)), Src.of(own)));
        l.add(ins("SHF", List.of("R", "S32", "HI"), List.of(ownWide.component(1)), Src.of(Reg.RZ), imm(31),
                Src.of(own)));
        l.add(ins("S2R", List.of(), List.of(t), Src.of(new SpecialReg(tid))));
        l.add(ins("SHF", List.of("L", "U32"), List.of(shifted), Src.of(t), imm(1), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(shiftedWide.component(0)), Src.of(shifted)));
        l.add(ins("SHF", List.of("R", "S32", "HI"), List.of(shiftedWide.component(1)), Src.of(Reg.RZ), imm(31),
                Src.of(shifted)));
        l.add(ins("IADD3", List.of(), List.of(sum.component(0), carry, Reg.PT), Src.of(shiftedWide.component(0)),
                Src.of(ownWide.component(0)), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of("X"), List.of(sum.component(1), Reg.PT, Reg.PT), Src.of(shiftedWide.component(1)),
                Src.of(ownWide.component(1)), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(sum, 0)), Src.of(y)));
        l.add(ins("EXIT", List.of(), List.of()));
        return sum.component(1);
    }

    /** For each branch, the opcode computing the 32-bit value its LEA.HI.X.SX32 extends. */
    private static List<String> fused(String secondTid) {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock first = f.addBlock(null);
        BasicBlock second = f.addBlock("$L2");
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        entry.instrs().add(ins("S2R", List.of(), List.of(y), Src.of(new SpecialReg("SR_TID.Y"))));
        entry.instrs().add(ins("ISETP", List.of("EQ", "AND"), List.of(p, Reg.PT), Src.of(CBank.of(0, 0x160)),
                Src.of(Reg.RZ), Src.of(Reg.PT)));
        entry.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(second.ref())),
                new Guard(p, false), 0));
        Reg firstHi = extendAndAdd(f, first, y, "IADD3", 5, "SR_TID.X");
        Reg secondHi = extendAndAdd(f, second, y, "LOP3", 7, secondTid);
        new InstructionCombining().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
        return List.of(extendedBy(first, firstHi), extendedBy(second, secondHi));
    }

    private static String extendedBy(BasicBlock b, Reg hi) {
        Instr lea = writer(b, hi);
        assertEquals("LEA", lea.op().name(), lea.toString());
        assertEquals(List.of("HI", "X", "SX32"), lea.mods(), lea.toString());
        return writer(b, (Reg) lea.srcs().get(0).value()).op().name();
    }

    private static Instr writer(BasicBlock b, Reg r) {
        return b.instrs().stream().filter(in -> in.dsts().contains(r)).findFirst().orElseThrow();
    }

    @Test
    void aValueAnEarlierBlockAlreadyExtendedIsTheOneFused() {
        // the first branch fuses its own addend (its first extension); the second, tid.x << 1 (extended before)
        assertEquals(List.of("IADD3", "SHF"), fused("SR_TID.X"));
    }

    @Test
    void betweenTwoValuesNotExtendedBeforeTheEarlierExtensionIsFused() {
        assertEquals(List.of("IADD3", "LOP3"), fused("SR_TID.Z"));
    }
}
