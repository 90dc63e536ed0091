package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
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

/**
 * {@link JumpTargetRuns}: the run of blocks an unconditional branch is the only way into (its first block falling
 * through to the next, up to one that ends control) comes up behind the branch, which goes; the labels follow the
 * blocks. A run with a second way in, or one whose blocks fall off the function, stays.
 */
class JumpTargetRunsTest {
    private static Instr mov(Reg d, int v) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(d), List.of(Src.of(Imm.ofInt(v))), Guard.ALWAYS, 0);
    }

    private static Instr bra(BasicBlock target, Reg p) {
        return new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(target.ref())),
                new Guard(p, false), 0);
    }

    private static Instr exit() {
        return new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0);
    }

    private static int value(BasicBlock b) {
        return (int) ((Imm) b.instrs().get(0).srcs().get(0).value()).bits();
    }

    /** b0: @p BRA b2 (b3 with a second way in); b1: MOV 1, BRA b3; b2: MOV 2, EXIT; b3: MOV 3, @q BRA b5; b4: MOV 4, EXIT; b5: MOV 5, EXIT. */
    private static final class Body {
        final FunctionBody f = new FunctionBody();
        final Reg r = f.newVirtual(RegFile.R, 1);
        final Reg p = f.newVirtual(RegFile.P, 1);
        final Reg q = f.newVirtual(RegFile.P, 1);
        final BasicBlock[] b = new BasicBlock[6];

        Body(boolean secondWayIn) {
            for (int i = 0; i < b.length; i++) {
                b[i] = f.addBlock("$L" + i);
            }
            b[0].instrs().add(bra(secondWayIn ? b[3] : b[2], p));
            b[1].instrs().add(mov(r, 1));
            b[1].instrs().add(bra(b[3], Reg.PT));
            b[2].instrs().add(mov(r, 2));
            b[2].instrs().add(exit());
            b[3].instrs().add(mov(r, 3));
            b[3].instrs().add(bra(b[5], q));
            b[4].instrs().add(mov(r, 4));
            b[4].instrs().add(exit());
            b[5].instrs().add(mov(r, 5));
            b[5].instrs().add(exit());
        }

        boolean run() {
            return new JumpTargetRuns().run(f, new OptContext(TestProfiles.of("sm_80"), "f"));
        }
    }

    @Test
    void theRunComesUpBehindItsOnlyBranchAndKeepsItsLabels() {
        Body t = new Body(false);
        assertTrue(t.run());
        List<BasicBlock> blocks = t.f.blocks();
        assertEquals(List.of("$L0", "$L1", "$L3", "$L4", "$L2", "$L5"), blocks.stream().map(BasicBlock::label).toList());
        for (int i = 0; i < blocks.size(); i++) {
            assertEquals(i, blocks.get(i).id());
        }
        assertEquals(1, blocks.get(1).instrs().size(), "the branch to the run goes: b1 falls into it");
        assertEquals(1, value(blocks.get(1)));
        assertEquals(3, value(blocks.get(2)));
        assertSame(t.b[5], blocks.get(blocks.get(2).last().branchTarget().block()), "the run's branch follows b5");
        assertSame(t.b[2], blocks.get(blocks.get(0).last().branchTarget().block()), "b0's branch follows b2");
        assertFalse(t.run(), "nothing left to move");
    }

    @Test
    void aRunWithASecondWayInStays() {
        Body t = new Body(true);
        assertFalse(t.run());
        assertEquals(List.of("$L0", "$L1", "$L2", "$L3", "$L4", "$L5"),
                t.f.blocks().stream().map(BasicBlock::label).toList());
        assertEquals("BRA", t.b[1].last().op().name());
    }

    @Test
    void aRunThatFallsOffTheFunctionStays() {
        FunctionBody f = new FunctionBody();
        Reg r = f.newVirtual(RegFile.R, 1);
        BasicBlock b0 = f.addBlock(null);
        BasicBlock b1 = f.addBlock(null);
        BasicBlock b2 = f.addBlock(null);
        b0.instrs().add(bra(b2, Reg.PT));
        b1.instrs().add(mov(r, 1));
        b1.instrs().add(exit());
        b2.instrs().add(mov(r, 2)); // no terminator: the run has no end to stop at
        assertFalse(new JumpTargetRuns().run(f, new OptContext(TestProfiles.of("sm_80"), "f")));
        assertEquals("BRA", b0.last().op().name());
    }
}
