package org.jptxas.scheduler.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.scheduler.latency.LatencyModel;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class PreRaSchedulerTest {
    private static final LatencyModel SM80 = LatencyModel.of(TestTargets.of("sm_80"));

    static Instr op(String name, List<String> mods, List<Reg> dsts, Operand... srcs) {
        List<Src> s = new ArrayList<>();
        Arrays.stream(srcs).forEach(o -> s.add(Src.of(o)));
        return new Instr(OriOpcodes.get().byName(name).orElseThrow(), mods, dsts, s, Guard.ALWAYS, 0);
    }

    private static List<String> names(BasicBlock b) {
        List<String> out = new ArrayList<>();
        b.instrs().forEach(i -> out.add(i.toString()));
        return out;
    }

    /** Two address computations, two loads, a use: both loads start before either result is needed. */
    private static OriFunction twoLoads(FunctionBody body, String between) {
        BasicBlock b = body.addBlock(null);
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg four = body.newVirtual(RegFile.R, 1);
        Reg xa = body.newVirtual(RegFile.R, 2);
        Reg ya = body.newVirtual(RegFile.R, 2);
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg y = body.newVirtual(RegFile.R, 1);
        Reg r = body.newVirtual(RegFile.R, 1);
        b.instrs().add(op("MOV", List.of(), List.of(i), CBank.of(0, 0x160)));
        b.instrs().add(op("MOV", List.of(), List.of(four), Imm.ofInt(4)));
        b.instrs().add(op("IMAD_WIDE", List.of("U32"), List.of(xa), i, four, CBank.of(0, 0x168)));
        b.instrs().add(op("LDG", List.of("E"), List.of(x), Addr.of(xa, 0)));
        if (between != null) {
            b.instrs().add(op(between, List.of("SYNC", "DEFER_BLOCKING"), List.of(), Imm.ofInt(0)));
        }
        Reg four2 = body.newVirtual(RegFile.R, 1);
        b.instrs().add(op("MOV", List.of(), List.of(four2), Imm.ofInt(4)));
        b.instrs().add(op("IMAD_WIDE", List.of("U32"), List.of(ya), i, four2, CBank.of(0, 0x170)));
        b.instrs().add(op("LDG", List.of("E"), List.of(y), Addr.of(ya, 0)));
        b.instrs().add(op("FADD", List.of(), List.of(r), x, y));
        b.instrs().add(op("STG", List.of("E"), List.of(), Addr.of(ya, 0), r));
        b.instrs().add(op("EXIT", List.of(), List.of()));
        return new OriFunction("k", true, 1, body);
    }

    @Test
    void independentLoadsIssueBeforeTheFirstIsConsumed() {
        FunctionBody body = new FunctionBody();
        OriFunction f = twoLoads(body, null);
        new PreRaScheduler(SM80).run(f, 255);
        List<String> order = names(body.blocks().get(0));
        System.out.println(order);
        int secondAddress = order.indexOf(order.stream().filter(s -> s.contains("0x170")).findFirst().orElseThrow());
        int firstLoad = order.indexOf(order.stream().filter(s -> s.startsWith("LDG")).findFirst().orElseThrow());
        assertTrue(secondAddress < firstLoad, () -> "both addresses first: " + order);
        assertEquals("EXIT", order.get(order.size() - 1));
        assertTrue(order.indexOf(order.stream().filter(s -> s.startsWith("STG")).findFirst().orElseThrow())
                > order.indexOf(order.stream().filter(s -> s.startsWith("FADD")).findFirst().orElseThrow()));
    }

    @Test
    void nothingCrossesABarrier() {
        FunctionBody body = new FunctionBody();
        OriFunction f = twoLoads(body, "BAR");
        List<String> before = names(body.blocks().get(0));
        new PreRaScheduler(SM80).run(f, 255);
        List<String> order = names(body.blocks().get(0));
        int bar = before.indexOf(before.stream().filter(s -> s.startsWith("BAR")).findFirst().orElseThrow());
        assertEquals(before.subList(0, bar).stream().sorted().toList(), order.subList(0, bar).stream().sorted().toList());
        assertEquals(before.get(bar), order.get(bar));
    }

    /** A load after an MMA that nothing reads soon issues before it: MMAs touch no memory and order nothing. */
    @Test
    void loadsMoveAboveAnEarlierMma() {
        FunctionBody body = new FunctionBody();
        BasicBlock b = body.addBlock(null);
        Reg p = body.newVirtual(RegFile.R, 2);
        Reg a = body.newVirtual(RegFile.R, 1);
        Reg acc = body.newVirtual(RegFile.R, 2);
        Reg d = body.newVirtual(RegFile.R, 2);
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg y = body.newVirtual(RegFile.R, 1);
        Reg z = body.newVirtual(RegFile.R, 1);
        b.instrs().add(op("LDG", List.of("E"), List.of(a), Addr.of(p, 0)));
        b.instrs().add(op("LDG", List.of("E", "64"), List.of(acc), Addr.of(p, 8)));
        b.instrs().add(op("IMMA", List.of("8816", "S8", "S8"), List.of(d), a, a, acc));
        b.instrs().add(op("LDG", List.of("E"), List.of(x), Addr.of(p, 16)));
        b.instrs().add(op("IMAD", List.of(), List.of(y), x, x, x));
        b.instrs().add(op("IMAD", List.of(), List.of(z), y, y, y));
        b.instrs().add(op("STG", List.of("E"), List.of(), Addr.of(p, 20), z));
        b.instrs().add(op("STG", List.of("E", "64"), List.of(), Addr.of(p, 24), d));
        b.instrs().add(op("EXIT", List.of(), List.of()));
        new PreRaScheduler(SM80).run(new OriFunction("k", true, 1, body), 255);
        List<String> order = names(b);
        int load = order.indexOf(order.stream().filter(t -> t.contains("+0x10]")).findFirst().orElseThrow());
        int mma = order.indexOf(order.stream().filter(t -> t.startsWith("IMMA")).findFirst().orElseThrow());
        assertTrue(load < mma, () -> "the third load before the MMA: " + order);
    }

    /** The call-frame pass finds a function's own frame adjustment at the head of its entry block. */
    @Test
    void stackPointerAdjustmentKeepsItsPlace() {
        FunctionBody body = new FunctionBody();
        BasicBlock b = body.addBlock(null);
        Reg sp = Reg.phys(RegFile.R, 1, 1);
        Reg a = body.newVirtual(RegFile.R, 1);
        Reg c = body.newVirtual(RegFile.R, 1);
        b.instrs().add(op("IADD3", List.of(), List.of(sp, Reg.PT, Reg.PT), sp, Imm.ofInt(-32), Reg.RZ));
        b.instrs().add(op("MOV", List.of(), List.of(a), CBank.of(0, 0x160)));
        b.instrs().add(op("IMAD", List.of(), List.of(c), a, a, a));
        b.instrs().add(op("STG", List.of("E"), List.of(), Addr.of(body.newVirtual(RegFile.R, 2), 0), c));
        b.instrs().add(op("EXIT", List.of(), List.of()));
        new PreRaScheduler(SM80).run(new OriFunction("k", true, 1, body), 255);
        List<String> order = names(b);
        assertTrue(order.get(0).startsWith("IADD3 R1"), () -> "frame adjustment first: " + order);
    }
}
