package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** {@link ConstantMoveSinking}: a constant's move goes to the one block that reads it, never into a loop. */
class ConstantMoveSinkingTest {
    private static Instr ins(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /**
     * {@code bb0: n = c[0x160]; p = c[0x168..]; @(tid >= c[0x160]) BRA bb2 / bb1 (a loop when {@code loop}): STG [p], n /
     * bb2: EXIT}.
     */
    private static FunctionBody guardedStore(boolean loop) {
        FunctionBody f = new FunctionBody();
        BasicBlock b0 = f.addBlock(null);
        BasicBlock b1 = f.addBlock(null);
        BasicBlock b2 = f.addBlock(null);
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg ge = f.newVirtual(RegFile.P, 1);
        b0.instrs().add(ins("MOV", List.of(p.component(0)), Src.of(CBank.of(0, 0x168))));
        b0.instrs().add(ins("MOV", List.of(p.component(1)), Src.of(CBank.of(0, 0x16c))));
        b0.instrs().add(ins("MOV", List.of(n), Src.of(CBank.of(0, 0x160))));
        b0.instrs().add(ins("S2R", List.of(tid), Src.of(new org.jptxas.ori.ir.SpecialReg("SR_TID.X"))));
        b0.instrs().add(ins("ISETP", List.of(ge, Reg.PT), Src.of(tid), Src.of(CBank.of(0, 0x160)),
                Src.of(Reg.PT)));
        Instr skip = ins("BRA", List.of(), Src.of(new BlockLabel(2)));
        skip.setGuard(new Guard(ge, false));
        b0.instrs().add(skip);
        b1.instrs().add(ins("STG", List.of(), Src.of(Addr.of(p, 0)), Src.of(tid)));
        b1.instrs().add(ins("STG", List.of(), Src.of(Addr.of(p, 4)), Src.of(n)));
        if (loop) {
            Instr back = ins("BRA", List.of(), Src.of(new BlockLabel(1)));
            back.setGuard(new Guard(ge, true));
            b1.instrs().add(back);
        }
        b2.instrs().add(ins("EXIT", List.of()));
        return f;
    }

    private static boolean run(FunctionBody f) {
        return new ConstantMoveSinking().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
    }

    @Test
    void aBoundReadAfterTheBranchIsMovedToItsReader() {
        FunctionBody f = guardedStore(false);
        assertTrue(run(f));
        List<String> b1 = f.block(1).instrs().stream().map(Instr::toString).toList();
        assertEquals("MOV %r0, c[0x0][0x160]", b1.get(3), b1.toString());
        assertTrue(b1.get(4).startsWith("STG") && b1.get(4).endsWith("%r0"), b1.toString());
        assertFalse(f.block(0).instrs().stream().anyMatch(i -> i.toString().equals("MOV %r0, c[0x0][0x160]")));
        assertFalse(run(f), "a fixed point");
    }

    @Test
    void aPointerReadAfterTheBranchMovesAsAPairToItsFirstReader() {
        FunctionBody f = guardedStore(false);
        assertTrue(run(f));
        List<String> b1 = f.block(1).instrs().stream().map(Instr::toString).toList();
        assertEquals(List.of("MOV %r1.lo, c[0x0][0x168]", "MOV %r1.hi, c[0x0][0x16c]"), b1.subList(0, 2),
                b1.toString());
        assertTrue(b1.get(2).startsWith("STG [%r1.64]"), b1.toString());
        assertTrue(f.block(0).instrs().stream().noneMatch(i -> i.op().name().equals("MOV")));
    }

    @Test
    void aPairWithOnePartReadBeforeTheBranchStays() {
        FunctionBody f = guardedStore(false);
        Reg p = f.block(0).instrs().get(0).dsts().get(0);
        Instr compare = f.block(0).instrs().get(4);
        f.block(0).instrs().add(4, ins("IADD3", List.of(f.newVirtual(RegFile.R, 1)), Src.of(p), Src.of(p),
                Src.of(Reg.RZ)));
        run(f);
        List<String> b0 = f.block(0).instrs().stream().map(Instr::toString).toList();
        assertTrue(b0.contains("MOV %r1.lo, c[0x0][0x168]") && b0.contains("MOV %r1.hi, c[0x0][0x16c]"), b0.toString());
        assertTrue(f.block(0).instrs().contains(compare));
    }

    @Test
    void aMoveStaysOutOfALoop() {
        FunctionBody f = guardedStore(true);
        assertFalse(run(f));
        assertTrue(f.block(1).instrs().stream().noneMatch(i -> i.op().name().equals("MOV")));
    }
}
