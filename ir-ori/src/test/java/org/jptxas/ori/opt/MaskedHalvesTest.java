package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * A 64-bit {@code and.b64 %rd, %rd, 0xffffffff} is lowered per half: {@code LOP3.LUT m.lo, x.lo, 0xffffffff, RZ, 0xc0}
 * and {@code LOP3.LUT m.hi, x.hi, 0x0, RZ, 0xc0}. Constant folding makes the halves moves (a copy of x.lo, RZ) and
 * copy propagation takes them into the compare that reads the halves, which then reads x.lo and RZ as ptxas's
 * {@code ISETP.GE.U32.AND.EX P0, PT, RZ, RZ, PT, P0} does; the mask has no instruction left (the dealii
 * portable_tensor_product_kernels.h:62 line of matrix_free_device_matrix_vector_04, which ptxas annotates nowhere).
 */
class MaskedHalvesTest {
    private record Body(FunctionBody f, Reg x, Instr compare, Instr compareHigh) {}

    /** {@code x = LDG.64 [p]; m = x & (hiMask:loMask) per half; p2 = m < 9 (64-bit); d = p2 ? 1 : 0; STG d}. */
    private static Body masked(int loMask, int hiMask) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 2);
        Reg m = f.newVirtual(RegFile.R, 2);
        Reg q = f.newVirtual(RegFile.P, 1);
        Reg q2 = f.newVirtual(RegFile.P, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(TestInstrs.ins("LDG", List.of("E", "64"), List.of(x), Src.of(Addr.of(p, 0))));
        for (int k = 0; k < 2; k++) {
            l.add(TestInstrs.ins("LOP3", List.of("LUT"), List.of(Reg.PT, m.component(k)), Src.of(x.component(k)),
                    TestInstrs.imm(k == 0 ? loMask : hiMask), Src.of(Reg.RZ), TestInstrs.imm(0xc0),
                    Src.of(Reg.PT).inverted()));
        }
        Instr compare = TestInstrs.ins("ISETP", List.of("LT", "U32", "AND"), List.of(q, Reg.PT),
                Src.of(m.component(0)), TestInstrs.imm(9), Src.of(Reg.PT));
        Instr compareHigh = TestInstrs.ins("ISETP", List.of("LT", "U32", "AND", "EX"), List.of(q2, Reg.PT),
                Src.of(m.component(1)), Src.of(Reg.RZ), Src.of(Reg.PT), Src.of(q));
        l.add(compare);
        l.add(compareHigh);
        l.add(TestInstrs.ins("SEL", List.of(), List.of(d), TestInstrs.imm(1), Src.of(Reg.RZ), Src.of(q2)));
        l.add(TestInstrs.ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        l.add(TestInstrs.ins("EXIT", List.of(), List.of()));
        return new Body(f, x, compare, compareHigh);
    }

    private static String optimize(Body body) {
        return TestInstrs.run(body.f(), "sm_80", new ConstantFolding(), new CopyPropagation(),
                new DeadCodeElimination());
    }

    @Test
    void theZeroExtendingMaskLeavesNoInstruction() {
        Body body = masked(0xffffffff, 0);
        String out = optimize(body);
        assertFalse(out.contains("LOP3"), out);
        assertEquals(Src.of(body.x().component(0)), body.compare().srcs().get(0), out);
        assertEquals(Src.of(Reg.RZ), body.compareHigh().srcs().get(0), out);
    }

    @Test
    void theHighWordMaskComparesTheHighHalfAlone() {
        Body body = masked(0, 0xffffffff);
        String out = optimize(body);
        assertFalse(out.contains("LOP3"), out);
        assertEquals(Src.of(Reg.RZ), body.compare().srcs().get(0), out);
        assertEquals(Src.of(body.x().component(1)), body.compareHigh().srcs().get(0), out);
    }

    @Test
    void aTableThatNoLongerReadsItsRegisterIsAConstant() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(TestInstrs.ins("LDG", List.of("E"), List.of(x), Src.of(Addr.of(p, 0))));
        Instr or = TestInstrs.ins("LOP3", List.of("LUT"), List.of(Reg.PT, d), Src.of(x), TestInstrs.imm(0xffffffff),
                Src.of(Reg.RZ), TestInstrs.imm(0xfc), Src.of(Reg.PT).inverted());
        l.add(or);
        l.add(TestInstrs.ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        l.add(TestInstrs.ins("EXIT", List.of(), List.of()));
        String out = TestInstrs.run(f, "sm_80", new ConstantFolding());
        assertEquals("MOV", or.op().name(), out);
        assertEquals(Src.of(Imm.ofInt(0xffffffff)), or.srcs().get(0), out);
    }
}
