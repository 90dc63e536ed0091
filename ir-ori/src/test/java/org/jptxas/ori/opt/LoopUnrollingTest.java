package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

class LoopUnrollingTest {
    /**
     * {@code i = init; x = tid; do { x = x * 3 + i; store [a + 4*k], x; k++; i += step; } while (i CMP bound);}
     * then a store of x and i; {@code nounroll} marks the header.
     */
    static FunctionBody counted(int init, int step, String cmp, int bound, boolean nounroll) {
        FunctionBody body = new FunctionBody();
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock entry = body.addBlock(null);
        entry.instrs().add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(0)), imm(0x1000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(1)), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(i), imm(init)));
        BasicBlock loop = body.addBlock("L");
        loop.setNoUnroll(nounroll);
        loop.instrs().add(ins("IMAD", List.of(), List.of(x), Src.of(x), imm(3), Src.of(i)));
        loop.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 0)), Src.of(x)));
        loop.instrs().add(ins("IADD3", List.of(), List.of(a.component(0)), Src.of(a.component(0)), imm(4),
                Src.of(Reg.RZ)));
        loop.instrs().add(ins("IADD3", List.of(), List.of(i), Src.of(i), imm(step), Src.of(Reg.RZ)));
        List<String> mods = cmp.endsWith("U32") ? List.of(cmp.substring(0, 2), "U32", "AND") : List.of(cmp, "AND");
        loop.instrs().add(ins("ISETP", mods, List.of(p, Reg.PT), Src.of(i), imm(bound), Src.of(Reg.PT)));
        loop.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(loop.ref())),
                new Guard(p, false), 0));
        BasicBlock exit = body.addBlock(null);
        exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 0)), Src.of(x)));
        exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 4)), Src.of(i)));
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return body;
    }

    private static boolean hasBackBranch(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (in.branchTarget() != null && in.branchTarget().block() <= b.id()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void sameStores(FunctionBody original, FunctionBody optimized) {
        for (long seed : new long[] {1, 5, 99}) {
            assertEquals(OriEvaluator.run(original, seed), OriEvaluator.run(optimized, seed),
                    () -> IrPrinter.print(new OriFunction("k", true, 0, optimized)));
        }
    }

    @Test
    void countedLoopsUnrollFullyAndKeepTheirStores() {
        int unrolled = 0;
        int[][] shapes = {{0, 1, 4}, {0, 1, 1}, {3, 2, 17}, {10, -1, 0}, {-5, 3, 7}, {0, 1, 300}, {0, 7, 100},
            {1, 1, 1}};
        String[] cmps = {"LT", "NE", "GT", "LE", "GE", "LTU32", "NEU32"};
        for (int[] s : shapes) {
            for (String cmp : cmps) {
                FunctionBody original = counted(s[0], s[1], cmp, s[2], false);
                FunctionBody body = counted(s[0], s[1], cmp, s[2], false);
                List<OriEvaluator.Store> expected;
                try {
                    expected = OriEvaluator.run(original, 1);
                } catch (IllegalStateException endless) {
                    continue; // a loop the step never ends (within the evaluator's limit) is no test case
                }
                boolean changed = new LoopUnrolling().run(body, new OptContext(TestProfiles.of("sm_80"), "k"));
                sameStores(original, body);
                if (changed) {
                    assertFalse(hasBackBranch(body));
                    unrolled++;
                    // one store per trip and two after the loop; one block per trip between the entry and the exit
                    assertEquals(expected.size(), body.blocks().size(),
                            () -> IrPrinter.print(new OriFunction("k", true, 0, body)));
                }
                FunctionBody o3 = counted(s[0], s[1], cmp, s[2], false);
                OptPipeline.forLevel(3, true, true).verifying(true).run(new OriFunction("k", true, 0, o3), TestProfiles.of("sm_80"));
                sameStores(original, o3);
            }
        }
        assertTrue(unrolled > 30, "unrolled " + unrolled);
    }

    @Test
    void theFoldersSeeEachCopysConstants() {
        FunctionBody body = counted(0, 1, "LT", 4, false);
        OptPipeline.forLevel(3, true, true).verifying(true).run(new OriFunction("k", true, 0, body), TestProfiles.of("sm_80"));
        String text = IrPrinter.print(new OriFunction("k", true, 0, body));
        assertFalse(hasBackBranch(body), text);
        assertFalse(text.contains("ISETP"), text);
    }

    @Test
    void nounrollAndUnknownTripCountsStayLoops() {
        FunctionBody pragma = counted(0, 1, "LT", 4, true);
        assertFalse(new LoopUnrolling().run(pragma, new OptContext(TestProfiles.of("sm_80"), "k")));
        // a bound the loop never reaches within the limit
        FunctionBody endless = counted(0, 0, "LT", 4, false);
        assertFalse(new LoopUnrolling().run(endless, new OptContext(TestProfiles.of("sm_80"), "k")));
        // too many copies
        FunctionBody big = counted(0, 1, "LT", LoopUnrolling.MAX_TRIPS + 1, false);
        assertFalse(new LoopUnrolling().run(big, new OptContext(TestProfiles.of("sm_80"), "k")));
    }
}
