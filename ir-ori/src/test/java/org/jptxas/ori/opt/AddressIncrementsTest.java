package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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

/** Pointers stepped in place, as unrolled loops leave them: the increments move into the accesses' offsets. */
class AddressIncrementsTest {
    /** The 64-bit add pair {@code p += step} as the lowering writes it, with a fresh carry predicate. */
    private static void add64(FunctionBody body, List<Instr> out, Reg p, int step) {
        Reg carry = body.newVirtual(RegFile.P, 1);
        out.add(ins("IADD3", List.of(), List.of(p.component(0), carry, Reg.PT), Src.of(p.component(0)), imm(step),
                Src.of(Reg.RZ)));
        out.add(ins("IADD3", List.of("X"), List.of(p.component(1), Reg.PT, Reg.PT), Src.of(p.component(1)),
                step < 0 ? imm(-1) : Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(carry), OpInfo.pt(false)));
    }

    /**
     * {@code p = 0x10000 + tid; sum = 0; for (i = 0; i < trips; i++) { sum += load [p]; p += step; }} then a store of
     * the sum (at {@code [p]} when {@code storeAtP}, else at a fixed address).
     */
    static FunctionBody steppingLoop(int trips, int step, boolean storeAtP) {
        FunctionBody body = new FunctionBody();
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg sum = body.newVirtual(RegFile.R, 1);
        Reg t = body.newVirtual(RegFile.R, 1);
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.R, 2);
        Reg q = body.newVirtual(RegFile.R, 2);
        Reg more = body.newVirtual(RegFile.P, 1);
        BasicBlock entry = body.addBlock(null);
        entry.instrs().add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        entry.instrs().add(ins("IADD3", List.of(), List.of(p.component(0)), Src.of(x), imm(0x10000), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(q.component(0)), imm(0x8000)));
        entry.instrs().add(ins("MOV", List.of(), List.of(q.component(1)), Src.of(Reg.RZ)));
        entry.instrs().add(ins("MOV", List.of(), List.of(sum), imm(0)));
        entry.instrs().add(ins("MOV", List.of(), List.of(i), imm(0)));
        BasicBlock loop = body.addBlock("L");
        loop.instrs().add(ins("LDG", List.of("E"), List.of(t), Src.of(Addr.of(p, 0))));
        loop.instrs().add(ins("IADD3", List.of(), List.of(sum), Src.of(sum), Src.of(t), Src.of(Reg.RZ)));
        add64(body, loop.instrs(), p, step);
        loop.instrs().add(ins("IADD3", List.of(), List.of(i), Src.of(i), imm(1), Src.of(Reg.RZ)));
        loop.instrs().add(ins("ISETP", List.of("LT", "AND"), List.of(more, Reg.PT), Src.of(i), imm(trips),
                Src.of(Reg.PT)));
        loop.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(loop.ref())),
                new Guard(more, false), 0));
        BasicBlock exit = body.addBlock(null);
        exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(storeAtP ? p : q, 0)), Src.of(sum)));
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return body;
    }

    private static List<Instr> all(FunctionBody body) {
        List<Instr> out = new ArrayList<>();
        body.blocks().forEach(b -> out.addAll(b.instrs()));
        return out;
    }

    private static List<Long> offsets(FunctionBody body, String op) {
        List<Long> out = new ArrayList<>();
        for (Instr in : all(body)) {
            if (OpInfo.is(in, op)) {
                for (Src s : in.srcs()) {
                    if (s.value() instanceof Addr a) {
                        out.add(a.offset());
                    }
                }
            }
        }
        return out;
    }

    private static long count(FunctionBody body, String op, String mod) {
        return all(body).stream().filter(in -> OpInfo.is(in, op) && (mod == null ? in.mods().isEmpty()
                : in.mods().contains(mod))).count();
    }

    private static String text(FunctionBody body) {
        return IrPrinter.print(new OriFunction("k", true, 0, body));
    }

    private static void sameBehaviour(FunctionBody original, FunctionBody optimized) {
        for (long seed : new long[] {1, 7, 42}) {
            assertEquals(OriEvaluator.run(original, seed), OriEvaluator.run(optimized, seed), () -> text(optimized));
        }
    }

    private static FunctionBody o3(FunctionBody body) {
        OptPipeline.forLevel(3, true, true).verifying(true).run(new OriFunction("k", true, 0, body),
                TestProfiles.of("sm_80"));
        return body;
    }

    @Test
    void anUnrolledPointerSteppingByFourLoadsAtIncreasingOffsets() {
        for (boolean storeAtP : new boolean[] {false, true}) {
            FunctionBody body = o3(steppingLoop(8, 4, storeAtP));
            sameBehaviour(steppingLoop(8, 4, storeAtP), body);
            assertEquals(List.of(0L, 4L, 8L, 12L, 16L, 20L, 24L, 28L), offsets(body, "LDG"), text(body));
            // one add of the whole step is left where the pointer is read after the copies, none where it is not
            assertEquals(storeAtP ? 1 : 0, count(body, "IADD3", "X"), text(body));
            if (storeAtP) {
                assertTrue(text(body).contains("0x20"), text(body));
            }
        }
    }

    @Test
    void aNegativeStepFoldsToNegativeOffsets() {
        FunctionBody body = o3(steppingLoop(4, -8, true));
        sameBehaviour(steppingLoop(4, -8, true), body);
        assertEquals(List.of(0L, -8L, -16L, -24L), offsets(body, "LDG"), text(body));
        assertEquals(1, count(body, "IADD3", "X"), text(body));
    }

    @Test
    void offsetsBeyondTheFieldPutTheSumBackFirst() {
        // 0x300000 per step: the fourth access would need 0x900000, past the signed 24-bit field
        FunctionBody body = o3(steppingLoop(6, 0x300000, true));
        sameBehaviour(steppingLoop(6, 0x300000, true), body);
        List<Long> offs = offsets(body, "LDG");
        assertEquals(6, offs.size(), text(body));
        for (long off : offs) {
            assertTrue(off >= AddressModeFolding.MIN_OFFSET && off <= AddressModeFolding.MAX_OFFSET, text(body));
        }
        assertEquals(List.of(0L, 0x300000L, 0x600000L, 0L, 0x300000L, 0x600000L), offs, text(body));
    }

    /** One block: {@code [s] = 1; s += 4; [s] = 2; s += 4; copy = s; [s] = copy; s += 4; [s] = 3}, 32-bit shared. */
    static FunctionBody sharedWithACopy() {
        FunctionBody body = new FunctionBody();
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg s = body.newVirtual(RegFile.R, 1);
        Reg copy = body.newVirtual(RegFile.R, 1);
        BasicBlock b = body.addBlock(null);
        b.instrs().add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        b.instrs().add(ins("IADD3", List.of(), List.of(s), Src.of(x), imm(0x100), Src.of(Reg.RZ)));
        b.instrs().add(ins("STS", List.of(), List.of(), Src.of(Addr.of(s, 0)), imm(1)));
        b.instrs().add(ins("IADD3", List.of(), List.of(s), Src.of(s), imm(4), Src.of(Reg.RZ)));
        b.instrs().add(ins("STS", List.of(), List.of(), Src.of(Addr.of(s, 0)), imm(2)));
        b.instrs().add(ins("IADD3", List.of(), List.of(s), Src.of(s), imm(4), Src.of(Reg.RZ)));
        b.instrs().add(ins("MOV", List.of(), List.of(copy), Src.of(s)));
        b.instrs().add(ins("STS", List.of(), List.of(), Src.of(Addr.of(s, 0)), Src.of(copy)));
        b.instrs().add(ins("IADD3", List.of(), List.of(s), Src.of(s), imm(4), Src.of(Reg.RZ)));
        b.instrs().add(ins("STS", List.of(), List.of(), Src.of(Addr.of(s, 0x10)), imm(3)));
        b.instrs().add(ins("EXIT", List.of(), List.of()));
        return body;
    }

    @Test
    void anIntermediatePointerReadElsewhereGetsItsValue() {
        FunctionBody body = sharedWithACopy();
        TestInstrs.run(body, "sm_80", new AddressModeFolding(), new DeadCodeElimination());
        sameBehaviour(sharedWithACopy(), body);
        // the copy reads s + 8: the two increments before it are put back as one; the last one folds again
        assertEquals(List.of(0L, 4L, 0L, 0x14L), offsets(body, "STS"), text(body));
        String t = text(body);
        assertTrue(t.contains("0x8"), t);
    }

    @Test
    void aCarryReadElsewhereKeepsItsIncrement() {
        FunctionBody body = new FunctionBody();
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.R, 2);
        Reg c = body.newVirtual(RegFile.R, 1);
        BasicBlock b = body.addBlock(null);
        b.instrs().add(ins("S2R", List.of(), List.of(x), Src.of(new SpecialReg("SR_TID.X"))));
        b.instrs().add(ins("IADD3", List.of(), List.of(p.component(0)), Src.of(x), imm(-8), Src.of(Reg.RZ)));
        b.instrs().add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(Reg.RZ)));
        List<Instr> first = new ArrayList<>();
        add64(body, first, p, 4);
        b.instrs().addAll(first);
        // the first increment's carry is read after its high add: that increment must stay
        Reg carry = first.get(0).dsts().get(1);
        b.instrs().add(ins("SEL", List.of(), List.of(c), imm(1), imm(0), Src.of(carry)));
        b.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(c)));
        add64(body, b.instrs(), p, 4);
        b.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(c)));
        add64(body, b.instrs(), p, 4);
        b.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(c)));
        b.instrs().add(ins("EXIT", List.of(), List.of()));
        String before = text(body);
        List<OriEvaluator.Store> expected = OriEvaluator.run(body, 3);
        TestInstrs.run(body, "sm_80", new AddressModeFolding(), new DeadCodeElimination());
        assertEquals(expected, OriEvaluator.run(body, 3), before + "\n->\n" + text(body));
        // the two later increments fold: [p], [p+0x4], [p+0x8]; the first stays
        assertEquals(List.of(0L, 4L, 8L), offsets(body, "STG"), text(body));
        assertEquals(1, count(body, "IADD3", "X"), text(body));
    }
}
