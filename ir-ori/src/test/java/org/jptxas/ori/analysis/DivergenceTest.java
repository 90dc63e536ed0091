package org.jptxas.ori.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** Post-dominators, branch regions and the divergence of values and branches. */
class DivergenceTest {
    private static Instr instr(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OriOpcodes.get().require(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private static Instr branch(Reg p, BasicBlock target) {
        Instr br = instr("BRA", List.of(), List.of(), Src.of(target.ref()));
        br.setGuard(new Guard(p, false));
        return br;
    }

    @Test
    void postDominatorsOfDiamondLoopAndExits() {
        // 0 -> {1, 2} -> 3 -> exit
        PostDominators diamond = new PostDominators(Cfg.fromSuccessors(new int[][] {{1, 2}, {3}, {3}, {}}));
        assertEquals(3, diamond.ipdom(0));
        assertEquals(3, diamond.ipdom(1));
        assertEquals(diamond.exit(), diamond.ipdom(3));
        assertTrue(diamond.postDominates(3, 0));
        assertFalse(diamond.postDominates(1, 0));
        // Both sides exit: only the virtual exit post-dominates the branch.
        PostDominators split = new PostDominators(Cfg.fromSuccessors(new int[][] {{1, 2}, {}, {}}));
        assertEquals(split.exit(), split.ipdom(0));
        // A loop 1 <-> 2 with an exit from 1 and from 2 to 3: both exits join at 3.
        PostDominators loop = new PostDominators(Cfg.fromSuccessors(new int[][] {{1}, {2, 3}, {1, 3}, {}}));
        assertEquals(3, loop.ipdom(1));
        assertEquals(3, loop.ipdom(2));
        // An endless loop reaches no exit.
        PostDominators endless = new PostDominators(Cfg.fromSuccessors(new int[][] {{1, 2}, {1}, {}}));
        assertEquals(-1, endless.ipdom(1));
    }

    @Test
    void regionStopsAtTheJoin() {
        Cfg cfg = Cfg.fromSuccessors(new int[][] {{1, 2}, {3}, {3}, {4}, {}});
        assertEquals("{1, 2}", Divergence.region(cfg, 0, 3).toString());
        assertEquals("{1, 2, 3, 4}", Divergence.region(cfg, 0, -1).toString());
    }

    /**
     * bb0: x = tid (or a parameter), n = param, p = x < 8, @p BRA bb2; bb1: y = 1; bb2 (join): loop head with a
     * uniform counter i; bb3 exits.
     */
    private static FunctionBody ifThenLoop(boolean divergentCondition) {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock then = f.addBlock(null);
        BasicBlock head = f.addBlock(null);
        BasicBlock exit = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg i = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg q = f.newVirtual(RegFile.P, 1);
        entry.instrs().add(divergentCondition ? instr("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X")))
                : instr("MOV", List.of(), List.of(x), Src.of(CBank.of(0, 0x160))));
        entry.instrs().add(instr("MOV", List.of(), List.of(y), Src.of(Imm.ofInt(0))));
        entry.instrs().add(instr("MOV", List.of(), List.of(i), Src.of(Imm.ofInt(0))));
        entry.instrs().add(instr("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(x), Src.of(Imm.ofInt(8)),
                Src.of(Reg.PT)));
        entry.instrs().add(branch(p, head));
        then.instrs().add(instr("MOV", List.of(), List.of(y), Src.of(Imm.ofInt(1))));
        head.instrs().add(instr("IADD3", List.of(), List.of(i), Src.of(i), Src.of(Imm.ofInt(1)), Src.of(y)));
        head.instrs().add(instr("ISETP", List.of("LT", "AND"), List.of(q, Reg.PT), Src.of(i),
                Src.of(CBank.of(0, 0x164)), Src.of(Reg.PT)));
        head.instrs().add(branch(q, head));
        exit.instrs().add(instr("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void threadIdMakesTheBranchAndWhatItGuardsDivergent() {
        FunctionBody f = ifThenLoop(true);
        Cfg cfg = Cfg.of(f);
        Divergence d = new Divergence(f, cfg, new PostDominators(cfg));
        assertTrue(d.isDivergentBranch(0));
        // y is written under the divergent branch and read after the join: divergent; so is i, which adds y.
        Reg y = f.block(1).instrs().get(0).dsts().get(0);
        assertTrue(d.isDivergent(y));
        assertTrue(d.isDivergentBranch(2));
    }

    @Test
    void parametersAndLoopCountersStayUniform() {
        FunctionBody f = ifThenLoop(false);
        Cfg cfg = Cfg.of(f);
        Divergence d = new Divergence(f, cfg, new PostDominators(cfg));
        assertFalse(d.isDivergentBranch(0));
        assertFalse(d.isDivergentBranch(2), "the loop counter starts uniform and adds uniform values");
        assertFalse(d.isDivergent(f.block(2).instrs().get(0).dsts().get(0)));
        assertFalse(d.isDivergentBranch(1), "no branch there");
    }

    @Test
    void loadsAreDivergentUniformRegistersAreNot() {
        Instr load = instr("LDG", List.of("E"), List.of(Reg.phys(RegFile.R, 0, 1)), Src.of(Imm.ofInt(0)));
        assertTrue(Divergence.inherentlyDivergent(load));
        assertFalse(Divergence.inherentlyDivergent(instr("LDC", List.of(), List.of(Reg.phys(RegFile.R, 0, 1)),
                Src.of(CBank.of(0, 0x160)))));
        assertFalse(Divergence.inherentlyDivergent(instr("S2R", List.of(), List.of(Reg.phys(RegFile.R, 0, 1)),
                Src.of(new SpecialReg("SR_CTAID.X")))));
        FunctionBody f = new FunctionBody();
        f.addBlock(null).instrs().add(instr("EXIT", List.of(), List.of()));
        Cfg cfg = Cfg.of(f);
        Divergence d = new Divergence(f, cfg, new PostDominators(cfg));
        assertFalse(d.isDivergent(Reg.phys(RegFile.UR, 4, 1)));
        assertFalse(d.isDivergent(Reg.PT));
    }

    @Test
    void insertBlockRenumbersBranchTargets() {
        FunctionBody f = ifThenLoop(true);
        f.insertBlock(2, null);
        assertEquals(5, f.blocks().size());
        for (int b = 0; b < 5; b++) {
            assertEquals(b, f.block(b).id());
        }
        assertEquals(new BlockLabel(3), f.block(0).last().branchTarget(), "entry's branch still reaches the loop head");
        assertEquals(new BlockLabel(3), f.block(3).last().branchTarget());
        assertEquals(2, Cfg.of(f).successors(1)[0], "the then-block falls through into the inserted block");
    }
}
