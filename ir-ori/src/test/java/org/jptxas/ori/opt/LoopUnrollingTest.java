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

    private static Instr guarded(Reg p, boolean negated, String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), new Guard(p, negated), 0);
    }

    /**
     * Backprop's reduction loop (Rodinia, {@code for (i = 1; i <= __log2f(16); i++)}) as the lowering writes it: the
     * bound is {@code lg2.approx} of a constant, lowered with its subnormal fix-up ({@code FSETP}, a guarded
     * {@code FMUL} and {@code FADD} redefining the operand and the result); the counter is an integer converted to f32
     * ({@code I2F}) for an f32 compare; the body has an {@code if} ({@code x % k == 0}, here {@code x & (k - 1)}, with
     * {@code k} the f32 value truncated, {@code F2I}) and ends in a barrier.
     */
    static FunctionBody log2Bounded(int power) {
        FunctionBody body = new FunctionBody();
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg in = body.newVirtual(RegFile.R, 1);
        Reg bound = body.newVirtual(RegFile.R, 1);
        Reg log = body.newVirtual(RegFile.R, 1);
        Reg f = body.newVirtual(RegFile.R, 1);
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg k = body.newVirtual(RegFile.R, 1);
        Reg t = body.newVirtual(RegFile.R, 1);
        Reg small = body.newVirtual(RegFile.P, 1);
        Reg odd = body.newVirtual(RegFile.P, 1);
        Reg more = body.newVirtual(RegFile.P, 1);
        BasicBlock entry = body.addBlock(null);
        entry.instrs().add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(0)), imm(0x1000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(1)), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(in), imm(Float.floatToRawIntBits((float) Math.pow(2, power)))));
        entry.instrs().add(ins("FSETP", List.of("GEU", "AND"), List.of(small, Reg.PT), new Src(in, false, true, false),
                imm(0x800000), Src.of(Reg.PT)));
        entry.instrs().add(guarded(small, true, "FMUL", List.of(), List.of(in), Src.of(in), imm(0x4b800000)));
        entry.instrs().add(ins("MUFU", List.of("LG2"), List.of(log), Src.of(in)));
        entry.instrs().add(ins("MOV", List.of(), List.of(bound), Src.of(log)));
        entry.instrs().add(guarded(small, true, "FADD", List.of(), List.of(bound), Src.of(log), imm(0xc1c00000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(f), imm(0x3f800000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(i), imm(1)));
        BasicBlock loop = body.addBlock("L");
        loop.instrs().add(ins("F2I", List.of("TRUNC", "NTZ"), List.of(k), Src.of(f)));
        loop.instrs().add(ins("IADD3", List.of(), List.of(t), Src.of(k), imm(-1), Src.of(Reg.RZ)));
        loop.instrs().add(ins("LOP3", List.of("LUT"), List.of(t), Src.of(t), Src.of(x), Src.of(Reg.RZ), imm(0xc0)));
        loop.instrs().add(ins("ISETP", List.of("NE", "AND"), List.of(odd, Reg.PT), Src.of(t), Src.of(Reg.RZ),
                Src.of(Reg.PT)));
        BasicBlock then = body.addBlock(null);
        BasicBlock latch = body.addBlock("SKIP");
        loop.instrs().add(guarded(odd, false, "BRA", List.of(), List.of(), Src.of(latch.ref())));
        then.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 0)), Src.of(k)));
        then.instrs().add(ins("IADD3", List.of(), List.of(a.component(0)), Src.of(a.component(0)), imm(4),
                Src.of(Reg.RZ)));
        latch.instrs().add(ins("BAR", List.of("SYNC", "DEFER_BLOCKING"), List.of(), imm(0)));
        latch.instrs().add(ins("IADD3", List.of(), List.of(i), Src.of(i), imm(1), Src.of(Reg.RZ)));
        latch.instrs().add(ins("I2F", List.of(), List.of(f), Src.of(i)));
        latch.instrs().add(ins("FSETP", List.of("GE", "AND"), List.of(more, Reg.PT), Src.of(bound), Src.of(f),
                Src.of(Reg.PT)));
        latch.instrs().add(guarded(more, false, "BRA", List.of(), List.of(), Src.of(loop.ref())));
        BasicBlock exit = body.addBlock(null);
        exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 0)), Src.of(x)));
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return body;
    }

    private static long count(FunctionBody body, String op) {
        return body.blocks().stream().flatMap(b -> b.instrs().stream()).filter(in -> OpInfo.is(in, op)).count();
    }

    @Test
    void aLoopBoundedByTheLog2OfAConstantUnrollsAndItsCounterFolds() {
        for (int power : new int[] {1, 4, 7}) {
            FunctionBody original = log2Bounded(power);
            // the trip count through the lowered lg2 (its fix-up guarded by a predicate known false) and the I2F
            FunctionBody body = log2Bounded(power);
            assertTrue(new LoopUnrolling().run(body, new OptContext(TestProfiles.of("sm_80"), "k")));
            assertFalse(hasBackBranch(body));
            assertEquals(power, count(body, "BAR"));
            sameStores(original, body);
            // as ptxas 13 compiles it: no loop left, and nothing of the counter (its increment, I2F, compare) nor of
            // the lg2; each copy's k is a constant
            FunctionBody o3 = log2Bounded(power);
            OptPipeline.forLevel(3, true, true).verifying(true).run(new OriFunction("k", true, 0, o3),
                    TestProfiles.of("sm_80"));
            String text = IrPrinter.print(new OriFunction("k", true, 0, o3));
            assertFalse(hasBackBranch(o3), text);
            assertEquals(power, count(o3, "BAR"), text);
            for (String op : new String[] {"I2F", "F2I", "FSETP", "MUFU", "FADD", "FMUL"}) {
                assertEquals(0, count(o3, op), op + " left in\n" + text);
            }
            sameStores(original, o3);
        }
    }

    /**
     * ptxas 13 unrolls fully only counters that step by a constant: {@code i *= 2} up to 3263 (the SDK's radix sort,
     * 12 trips), up to 8 (4 trips), {@code i *= 3}, {@code i <<= 1} and {@code i >>= 1} stay loops, {@code i += 1} and
     * {@code i -= 1} over 12 trips unroll (sm_80, a load, two adds and a barrier per trip).
     */
    @Test
    void aCounterThatMultipliesStaysALoop() {
        for (int bound : new int[] {8, 3263}) {
            FunctionBody body = counted(1, 1, "LE", bound, false);
            List<Instr> loop = body.block(1).instrs();
            Instr step = loop.get(3);
            assertEquals("IADD3", step.op().name());
            Reg i = step.dsts().get(0);
            loop.set(3, ins("IMAD", List.of(), List.of(i), Src.of(i), imm(2), Src.of(Reg.RZ)));
            assertFalse(new LoopUnrolling().run(body, new OptContext(TestProfiles.of("sm_80"), "k")),
                    () -> IrPrinter.print(new OriFunction("k", true, 0, body)));
        }
        assertTrue(new LoopUnrolling().run(counted(1, 1, "LE", 8, false), new OptContext(TestProfiles.of("sm_80"), "k")));
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

    /**
     * keccak_f800's shape: eight words of state, each round 13 three-way XORs of them a word (107 instructions, over
     * {@link LoopUnrolling#MAX_BODY}), {@code trips} rounds; the state starts from the subroutine's parameter
     * registers R4..R11 or, as in a kernel, from the parameter bank. Then a store of every word.
     */
    static FunctionBody stateLoop(boolean fromParameterRegisters, int trips) {
        FunctionBody body = new FunctionBody();
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.P, 1);
        Reg[] state = new Reg[8];
        BasicBlock entry = body.addBlock(null);
        for (int k = 0; k < state.length; k++) {
            state[k] = body.newVirtual(RegFile.R, 1);
            Src from = fromParameterRegisters ? Src.of(Reg.phys(RegFile.R, 4 + k, 1))
                    : Src.of(org.jptxas.ori.ir.CBank.of(0, 0x160 + 4 * k));
            entry.instrs().add(ins("MOV", List.of(), List.of(state[k]), from));
        }
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(0)), imm(0x1000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(a.component(1)), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(i), imm(0)));
        BasicBlock loop = body.addBlock("L");
        for (int round = 0; round < 13; round++) {
            for (int k = 0; k < state.length; k++) {
                loop.instrs().add(ins("LOP3", List.of("LUT"), List.of(state[k]), Src.of(state[k]),
                        Src.of(state[(k + round + 1) % state.length]), imm(round * 8 + k + 1), imm(0x96)));
            }
        }
        loop.instrs().add(ins("IADD3", List.of(), List.of(i), Src.of(i), imm(1), Src.of(Reg.RZ)));
        loop.instrs().add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(i), imm(trips),
                Src.of(Reg.PT)));
        loop.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(loop.ref())),
                new Guard(p, false), 0));
        BasicBlock exit = body.addBlock(null);
        for (int k = 0; k < state.length; k++) {
            exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(a, 4 * k)), Src.of(state[k])));
        }
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return body;
    }

    /**
     * ptxas 13 unrolls a subroutine's loop whose state starts from its parameters far past its usual limits
     * (keccak_f800's 21 rounds; 125 XORs and rotates a round 200 times); the same loop starting from kernel
     * parameters stays a loop (sm_80).
     */
    @Test
    void aLoopStartingFromTheSubroutinesParametersUnrollsPastTheUsualLimits() {
        for (int trips : new int[] {21, 100}) {
            FunctionBody original = stateLoop(true, trips);
            FunctionBody body = stateLoop(true, trips);
            assertTrue(new LoopUnrolling().run(body, new OptContext(TestProfiles.of("sm_80"), "k")));
            assertFalse(hasBackBranch(body));
            assertEquals(trips * 104, count(body, "LOP3"));
            sameStores(original, body);
        }
        FunctionBody kernel = stateLoop(false, 21);
        assertFalse(new LoopUnrolling().run(kernel, new OptContext(TestProfiles.of("sm_80"), "k")),
                "state from the parameter bank keeps the usual limits");
    }
}
