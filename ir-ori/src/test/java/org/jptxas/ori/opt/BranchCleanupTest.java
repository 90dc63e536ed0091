package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** Branches to a block that only returns become that return, as ptxas leaves a subroutine early. */
class BranchCleanupTest {
    private static final OptContext CX = new OptContext(TestProfiles.of("sm_80"), "f");

    private static Instr ret() {
        return new Instr(OpInfo.op("RET"), List.of("REL", "NODEC"), List.of(),
                List.of(Src.of(Reg.phys(RegFile.R, 6, 1)), Src.of(Reg.phys(RegFile.R, 7, 1)),
                        Src.of(new Sym("k", Sym.Kind.FUNCTION))), Guard.ALWAYS, 30);
    }

    private static Instr bra(BasicBlock target, Guard g, int line) {
        return new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(target.ref())), g, line);
    }

    private static Instr store(Reg base, int offset, Reg value) {
        return new Instr(OpInfo.op("ST"), List.of("E"), List.of(), List.of(Src.of(Addr.of(base, offset)), Src.of(value)),
                Guard.ALWAYS, 20);
    }

    private static Instr mov(Reg d, int v) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(d), List.of(Src.of(Imm.ofInt(v))), Guard.ALWAYS, 10);
    }

    /** {@code @P BRA END; ...; BRA END; END: RET}: both branches become the RET, each with its own line. */
    @Test
    void branchesToALoneReturnBecomeTheReturn() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock(null);
        BasicBlock b2 = body.addBlock(null);
        BasicBlock end = body.addBlock("$END");
        b0.instrs().add(mov(r, 1));
        b0.instrs().add(bra(end, new Guard(p, false), 12));
        b1.instrs().add(store(a, 0, r));
        b1.instrs().add(bra(end, Guard.ALWAYS, 14));
        b2.instrs().add(store(a, 4, r));
        end.instrs().add(ret());
        assertTrue(new BranchCleanup().run(body, CX));
        Instr early = b0.last();
        assertEquals("RET", early.op().name());
        assertEquals(List.of("REL", "NODEC"), early.mods());
        assertEquals(ret().srcs(), early.srcs(), "the return address and the section's function");
        assertEquals(new Guard(p, false), early.guard());
        assertEquals(12, early.line(), "the branch's line stays");
        assertEquals("RET", b1.last().op().name());
        assertTrue(b1.last().guard().isAlways());
        assertEquals(14, b1.last().line());
        assertFalse(new BranchCleanup().run(body, CX), "nothing left to clean");
    }

    /** With anything else in the join, ptxas keeps one return: the branches stay. */
    @Test
    void aReturnAfterOtherCodeIsNotCopied() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock(null);
        BasicBlock end = body.addBlock("$END");
        b0.instrs().add(mov(r, 1));
        b0.instrs().add(bra(end, new Guard(p, false), 12));
        b1.instrs().add(store(a, 0, r));
        end.instrs().add(store(a, 8, r));
        end.instrs().add(ret());
        assertFalse(new BranchCleanup().run(body, CX));
        assertEquals("BRA", b0.last().op().name());
    }

    /**
     * {@code @P BRA T; RET; (emptied blocks); T:}: one guarded return {@code @!P RET} that falls through to T, across
     * the blocks dead-code elimination emptied.
     */
    @Test
    void aReturnSkippedByABranchBecomesTheNegatedGuardedReturn() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 1);
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock b0 = body.addBlock(null);
        BasicBlock jump = body.addBlock(null);
        body.addBlock(null); // emptied, unreachable
        BasicBlock t = body.addBlock("$A");
        BasicBlock end = body.addBlock("$END");
        b0.instrs().add(mov(r, 1));
        b0.instrs().add(bra(t, new Guard(p, false), 12));
        jump.instrs().add(bra(end, Guard.ALWAYS, 13));
        t.instrs().add(store(a, 0, r));
        end.instrs().add(ret());
        assertTrue(new BranchCleanup().run(body, CX));
        assertEquals("RET", b0.last().op().name());
        assertEquals(new Guard(p, true), b0.last().guard());
        assertTrue(jump.instrs().isEmpty(), "the jump block is left empty: b0 falls through to T");
        assertEquals(1, t.instrs().size());
    }
}
