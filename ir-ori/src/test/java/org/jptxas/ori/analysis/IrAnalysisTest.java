package org.jptxas.ori.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
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
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;
import org.junit.jupiter.api.Test;

class IrAnalysisTest {
    private static OriOpcode op(String name) {
        return OriOpcodes.get().byName(name).orElseThrow();
    }

    private static Instr instr(String op, List<Reg> dsts, Src... srcs) {
        return Instr.of(op(op), dsts, List.of(srcs));
    }

    /**
     * A counting loop: bb0 sets i = 0 and n = c[0][0x160]; bb1 (loop head) tests i < n and exits to bb3;
     * bb2 increments i and branches back; bb3 exits.
     */
    private static FunctionBody loop() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock head = f.addBlock("$L_head");
        BasicBlock body = f.addBlock(null);
        BasicBlock exit = f.addBlock("$L_exit");
        Reg i = f.newVirtual(RegFile.R, 1);
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        entry.instrs().add(instr("MOV", List.of(i), Src.of(Imm.ofInt(0))));
        entry.instrs().add(instr("MOV", List.of(n), Src.of(CBank.of(0, 0x160))));
        head.instrs().add(new Instr(op("ISETP"), List.of("GE", "AND"), List.of(p, Reg.PT),
                List.of(Src.of(i), Src.of(n), Src.of(Reg.PT)), Guard.ALWAYS, 7));
        Instr br = instr("BRA", List.of(), Src.of(exit.ref()));
        br.setGuard(new Guard(p, false));
        head.instrs().add(br);
        body.instrs().add(instr("IADD3", List.of(i), Src.of(i), Src.of(Imm.ofInt(1)), Src.of(Reg.RZ)));
        body.instrs().add(instr("BRA", List.of(), Src.of(head.ref())));
        exit.instrs().add(instr("EXIT", List.of()));
        return f;
    }

    @Test
    void cfgFollowsBranchesAndFallThrough() {
        Cfg cfg = Cfg.of(loop());
        assertArrayEquals(new int[] {1}, cfg.successors(0));
        assertArrayEquals(new int[] {3, 2}, cfg.successors(1));
        assertArrayEquals(new int[] {1}, cfg.successors(2));
        assertArrayEquals(new int[] {}, cfg.successors(3));
        assertArrayEquals(new int[] {0, 2}, cfg.predecessors(1));
        assertArrayEquals(new int[] {0, 1, 2, 3}, cfg.reversePostorder());
    }

    @Test
    void dominatorsOfLoopAndDiamond() {
        Dominators d = new Dominators(Cfg.of(loop()));
        assertEquals(0, d.idom(1));
        assertEquals(1, d.idom(2));
        assertEquals(1, d.idom(3));
        assertTrue(d.dominates(1, 2));
        assertFalse(d.dominates(2, 3));
        // Diamond 0 -> {1, 2} -> 3, plus an unreachable block 4.
        Dominators diamond = new Dominators(Cfg.fromSuccessors(new int[][] {{1, 2}, {3}, {3}, {}, {3}}));
        assertEquals(0, diamond.idom(3));
        assertFalse(diamond.dominates(1, 3));
        assertEquals(-1, diamond.idom(4));
        assertFalse(diamond.dominates(0, 4));
    }

    @Test
    void dominatorsOfIrreducibleGraph() {
        // 0 -> 1, 0 -> 2, 1 <-> 2: neither 1 nor 2 dominates the other.
        Dominators d = new Dominators(Cfg.fromSuccessors(new int[][] {{1, 2}, {2}, {1}}));
        assertEquals(0, d.idom(1));
        assertEquals(0, d.idom(2));
    }

    @Test
    void livenessCarriesTheCounterAroundTheBackEdge() {
        FunctionBody f = loop();
        Liveness live = new Liveness(f, Cfg.of(f));
        Reg i = Reg.virt(RegFile.R, 0, 1);
        Reg n = Reg.virt(RegFile.R, 1, 1);
        Reg p = Reg.virt(RegFile.P, 0, 1);
        assertFalse(live.liveIn(0, i));
        assertTrue(live.liveOut(0, i));
        assertTrue(live.liveIn(1, i) && live.liveIn(1, n));
        assertTrue(live.liveIn(2, i) && live.liveIn(2, n), "n stays live through the loop body");
        assertFalse(live.liveIn(3, i), "nothing is live at the exit");
        assertFalse(live.liveOut(1, p), "the predicate dies at the branch");
        assertEquals(2, live.maxPressure(f.block(1), RegFile.R, Map.of()));
        assertEquals(1, live.maxPressure(f.block(1), RegFile.P, Map.of()));
    }

    @Test
    void guardedDefinitionDoesNotKill() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        b.instrs().add(instr("S2R", List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        BasicBlock b1 = f.addBlock(null);
        Instr guarded = instr("MOV", List.of(x), Src.of(Imm.ofInt(5)));
        guarded.setGuard(new Guard(p, true));
        b1.instrs().add(instr("ISETP", List.of(p, Reg.PT), Src.of(x), Src.of(Imm.ofInt(3)), Src.of(Reg.PT)));
        b1.instrs().add(guarded);
        b1.instrs().add(instr("STG", List.of(), Src.of(Reg.virt(RegFile.R, 0, 1))));
        b1.instrs().add(instr("EXIT", List.of()));
        Liveness live = new Liveness(f, Cfg.of(f));
        assertTrue(live.liveIn(1, x));
        assertEquals(List.of(), IrVerifier.verify("k", f));
        DefUse du = new DefUse(f);
        assertEquals(2, du.defs(x).size());
        assertEquals(2, du.uses(x).size());
        assertFalse(du.singleDef(x));
        assertEquals(1, du.uses(p).size(), "the guard is a use");
    }

    @Test
    void verifierAcceptsWellFormedAndReportsEachDefect() {
        FunctionBody ok = loop();
        assertEquals(List.of(), IrVerifier.verify("k", ok));

        FunctionBody bad = new FunctionBody();
        BasicBlock b0 = bad.addBlock(null);
        Reg undefined = bad.newVirtual(RegFile.R, 1);
        Reg wide = bad.newVirtual(RegFile.R, 2);
        b0.instrs().add(instr("BRA", List.of(), Src.of(new org.jptxas.ori.ir.BlockLabel(7))));
        b0.instrs().add(instr("MOV", List.of(Reg.virt(RegFile.R, 1, 1)), Src.of(undefined)));
        b0.instrs().add(instr("MOV", List.of(wide), Src.of(Reg.virt(RegFile.R, 9, 1))));
        List<String> problems = IrVerifier.verify("k", bad);
        String all = String.join("\n", problems);
        assertTrue(all.contains("unconditional BRA is not the last instruction"), all);
        assertTrue(all.contains("branch to missing block bb7"), all);
        assertTrue(all.contains("%r1 used with 1 components, elsewhere 2") || all.contains("%r1 used with 2 components, elsewhere 1"), all);
        assertTrue(all.contains("%r9 was not allocated"), all);
        assertTrue(all.contains("falls off the end of the function"), all);
        assertTrue(all.contains("virtual register %r0 is used but never defined"), all);
    }

    @Test
    void printerShowsBlocksSuccessorsAndLines() {
        String text = IrPrinter.print(new OriFunction("count", true, 3, loop()));
        assertEquals("""
                .entry count
                bb0:  -> bb1
                    MOV %r0, 0x0
                    MOV %r1, c[0x0][0x160]
                bb1 ($L_head):  -> bb3, bb2
                    ISETP.GE.AND %p0, PT, %r0, %r1, PT    // line 7
                    @%p0 BRA bb3
                bb2:  -> bb1
                    IADD3 %r0, %r0, 0x1, RZ
                    BRA bb1
                bb3 ($L_exit):
                    EXIT
                """, text);
    }

    @Test
    void registersValidateTheirRange() {
        assertEquals("R254", Reg.phys(RegFile.R, 254, 1).toString());
        assertEquals("RZ", Reg.RZ.toString());
        assertEquals("R4.64", Reg.phys(RegFile.R, 4, 2).toString());
        assertTrue(Reg.UPT.isZero());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Reg.phys(RegFile.R, 254, 4));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Reg.virt(RegFile.P, 0, 2));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new Guard(Reg.RZ, false));
        assertEquals(Reg.phys(RegFile.R, 5, 1), Reg.phys(RegFile.R, 4, 2).component(1));
    }
}
