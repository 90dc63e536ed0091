package org.jptxas.ori.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.junit.jupiter.api.Test;

/** A BRX through a jump table is a block end with one successor per distinct table entry. */
class JumpTableCfgTest {
    private static Instr instr(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OriOpcodes.get().require(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** bb0: index (tid or a parameter), BRX over [bb3, bb1, bb3, bb2]; bb1, bb2 set x and go to bb3; bb3 exits. */
    private static FunctionBody jumpTable(boolean divergentIndex) {
        FunctionBody f = new FunctionBody();
        List<BasicBlock> bb = java.util.stream.Stream.generate(() -> f.addBlock(null)).limit(4).toList();
        BasicBlock entry = bb.get(0), one = bb.get(1), two = bb.get(2), join = bb.get(3);
        Reg[] r = {f.newVirtual(RegFile.R, 1), f.newVirtual(RegFile.R, 2), f.newVirtual(RegFile.R, 1)};
        Reg index = r[0], target = r[1], x = r[2];
        entry.instrs().add(divergentIndex ? instr("S2R", List.of(index), Src.of(new SpecialReg("SR_TID.X")))
                : instr("MOV", List.of(index), Src.of(CBank.of(0, 0x160))));
        entry.instrs().add(instr("MOV", List.of(x), Src.of(Imm.ofInt(0))));
        entry.instrs().add(instr("MOV", List.of(target), Src.of(index)));
        entry.instrs().add(instr("BRX", List.of(), Src.of(target), Src.of(Imm.ofInt(0)), Src.of(join.ref()),
                Src.of(one.ref()), Src.of(join.ref()), Src.of(two.ref())));
        one.instrs().add(instr("MOV", List.of(x), Src.of(Imm.ofInt(1))));
        one.instrs().add(instr("BRA", List.of(), Src.of(join.ref())));
        two.instrs().add(instr("MOV", List.of(x), Src.of(Imm.ofInt(2))));
        join.instrs().add(instr("EXIT", List.of()));
        return f;
    }

    @Test
    void everyDistinctEntryIsASuccessorAndNothingFallsThrough() {
        FunctionBody f = jumpTable(false);
        Instr brx = f.block(0).last();
        assertTrue(brx.isIndirectBranch());
        assertNull(brx.branchTarget(), "a jump table is no direct branch");
        assertEquals(List.of(new BlockLabel(3), new BlockLabel(1), new BlockLabel(2)), brx.branchTargets());
        Cfg cfg = Cfg.of(f);
        assertArrayEquals(new int[] {3, 1, 2}, cfg.successors(0));
        assertArrayEquals(new int[] {0}, cfg.predecessors(1));
        assertTrue(cfg.isReachable(2), "reached only through the table");
        assertEquals(3, new PostDominators(cfg).ipdom(0));
    }

    @Test
    void aPerThreadIndexMakesTheBranchDivergent() {
        for (boolean divergent : new boolean[] {true, false}) {
            FunctionBody f = jumpTable(divergent);
            Cfg cfg = Cfg.of(f);
            Divergence d = new Divergence(f, cfg, new PostDominators(cfg));
            assertEquals(divergent, d.isDivergentBranch(0));
            assertFalse(d.isDivergentBranch(1));
        }
    }

    @Test
    void insertingABlockRetargetsEveryEntry() {
        FunctionBody f = jumpTable(false);
        f.insertBlock(1, null);
        Instr brx = f.block(0).last();
        assertEquals(List.of(new BlockLabel(4), new BlockLabel(2), new BlockLabel(3)), brx.branchTargets());
        assertEquals(6, brx.srcs().size(), "the table keeps its repeated entry");
        assertTrue(IrVerifier.verify("k", f).isEmpty(), IrVerifier.verify("k", f).toString());
    }
}
