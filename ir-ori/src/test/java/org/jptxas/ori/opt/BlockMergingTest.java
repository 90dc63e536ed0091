package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

class BlockMergingTest {
    private static Instr mov(Reg d, int v) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(d), List.of(Src.of(Imm.ofInt(v))), Guard.ALWAYS, 0);
    }

    private static Instr bra(BasicBlock target, Reg p) {
        return new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(target.ref())),
                new Guard(p, false), 0);
    }

    private static List<Integer> values(BasicBlock b) {
        return b.instrs().stream().map(i -> (int) ((Imm) i.srcs().get(0).value()).bits()).toList();
    }

    @Test
    void fallThroughChainsJoinAndBranchTargetsStay() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock("$L1");
        BasicBlock b2 = body.addBlock(null);
        BasicBlock b3 = body.addBlock(null);
        BasicBlock b4 = body.addBlock("$L4");
        b0.instrs().add(mov(r, 0));
        b1.instrs().add(mov(r, 1));
        b2.instrs().add(mov(r, 2));
        b2.instrs().add(bra(b4, p)); // b2 ends in a branch: b3 is entered from it, b4 from b2 and b3
        b3.instrs().add(mov(r, 3));
        b4.instrs().add(mov(r, 4));
        BasicBlock b5 = body.addBlock(null);
        b5.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
        assertTrue(new BlockMerging().run(body, new OptContext(TestProfiles.of("sm_80"), "f")));
        assertEquals(4, b0.instrs().size(), "b1 and b2 (with its branch) join b0");
        assertTrue(b2.instrs().isEmpty());
        assertEquals(List.of(3), values(b1), "b3, entered through the emptied b1 and b2, moves up to b1");
        assertTrue(b3.instrs().isEmpty());
        assertEquals(List.of(4), values(b4), "a join stays");
        assertEquals(1, b5.instrs().size(), "the function's last block stays");
        assertEquals(4, b0.last().branchTarget().block());
        assertFalse(new BlockMerging().run(body, new OptContext(TestProfiles.of("sm_80"), "f")), "nothing left to merge");
    }

    /**
     * A BRX entered by falling through joins the block before it, but the first entry of its table, right after it,
     * keeps its instructions under its label: the emptied block the BRX left falls into it, the table does not.
     */
    @Test
    void jumpTableEntriesStayUnderTheirLabels() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock(null);
        BasicBlock b2 = body.addBlock("$A0");
        BasicBlock b3 = body.addBlock("$A1");
        BasicBlock b4 = body.addBlock(null);
        b0.instrs().add(mov(r, 0));
        b1.instrs().add(new Instr(OpInfo.op("BRX"), List.of(), List.of(), List.of(Src.of(r), Src.of(b2.ref()),
                Src.of(b3.ref())), Guard.ALWAYS, 0));
        b2.instrs().add(mov(r, 2));
        b2.instrs().add(bra(b4, Reg.PT));
        b3.instrs().add(mov(r, 3));
        b4.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
        new BlockMerging().run(body, new OptContext(TestProfiles.of("sm_80"), "f"));
        assertEquals("BRX", b0.last().op().name(), "the BRX joins the block before it");
        assertTrue(b1.instrs().isEmpty());
        assertEquals(2, b2.instrs().size(), "the first entry keeps its instructions");
        assertEquals(List.of(3), values(b3));
    }

    /**
     * A block ending in an unguarded BRA to a block entered only from it, which ends in an EXIT, takes that block's
     * code in place of the branch (ptxas lays it out right after its one predecessor); a target with a second way in
     * stays where it is, and so does one that would fall through from its old place.
     */
    @Test
    void soleJumpTargetMovesUpBehindItsOnlyPredecessor() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock(null);
        BasicBlock b2 = body.addBlock("$ELSE");
        BasicBlock b3 = body.addBlock("$JOIN");
        BasicBlock b4 = body.addBlock("$FALLS");
        BasicBlock b5 = body.addBlock("$END");
        b0.instrs().add(mov(r, 0));
        b0.instrs().add(bra(b2, p));
        b1.instrs().add(mov(r, 1));
        b1.instrs().add(bra(b3, Reg.PT));
        b2.instrs().add(mov(r, 2));
        b2.instrs().add(bra(b4, Reg.PT)); // b4 is entered only from here, but falls through to b5
        b3.instrs().add(mov(r, 3));
        b3.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
        b4.instrs().add(mov(r, 4));
        b5.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
        assertTrue(new BlockMerging().run(body, new OptContext(TestProfiles.of("sm_80"), "f")));
        assertEquals(3, b1.instrs().size(), "b3's code follows b1's in place of the branch");
        assertEquals(List.of(1, 3), b1.instrs().subList(0, 2).stream().map(i -> (int) ((Imm) i.srcs().get(0).value()).bits()).toList());
        assertEquals("EXIT", b1.last().op().name());
        assertTrue(b3.instrs().isEmpty());
        assertEquals(2, b2.instrs().size(), "b4 falls through to b5: it stays under its label");
        assertEquals(1, b4.instrs().size());
        assertFalse(new BlockMerging().run(body, new OptContext(TestProfiles.of("sm_80"), "f")), "nothing left to merge");
    }
}
