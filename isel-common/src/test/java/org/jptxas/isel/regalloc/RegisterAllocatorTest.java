package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.target.TargetProfile;

class RegisterAllocatorTest {
    private static final RegisterLimits SM80 = RegisterLimits.of(TestTargets.profile("sm_80"));

    private static Allocation allocate(OriFunction f, RegisterLimits limits) {
        Allocation a = RegisterAllocator.allocate(f, limits, true);
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                List<Reg> regs = new ArrayList<>(in.dsts());
                regs.addAll(in.usedRegs());
                for (Reg r : regs) {
                    assertFalse(r.virtual(), "virtual register left in " + in);
                    if (r.file() == RegFile.R && !r.isZero()) {
                        assertTrue(r.index() + r.comps() - 1 <= limits.highestGpr(), in.toString());
                        assertEquals(0, r.index() % LinearScan.alignment(r.comps()), "alignment of " + in);
                    }
                }
            }
        }
        return a;
    }

    private static long count(OriFunction f, String op) {
        return f.body().blocks().stream().flatMap(b -> b.instrs().stream()).filter(i -> i.op().name().equals(op))
                .count();
    }

    @Test
    void straightLineReusesRegistersAndCountsLikePtxas() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg y = b.add(x, 1);
        Reg z = b.add(x, y);
        Reg w = b.add(z, z);
        b.store(out, w);
        b.exit();
        OriFunction f = b.function();
        Allocation a = allocate(f, SM80);
        // out is a pair (R0..R1 is not allowed: R1 is the stack pointer), so it goes to R2.64; x, y, z, w reuse R0/R4.
        assertTrue(a.gprs() <= 5, () -> a + "\n" + IrPrinter.print(f));
        assertEquals(a.gprs() + 2, a.registers());
        assertEquals(0, a.spillBytes());
        assertFalse(a.usesStackPointer());
    }

    @Test
    void emptyKernelCountsFourRegistersAsPtxas() {
        OriBuilder b = new OriBuilder();
        b.exit();
        assertEquals(4, allocate(b.function(), SM80).registers());
    }

    @Test
    void loopCarriedValuesStayLiveAroundTheBackEdge() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg n = b.param(8);
        Reg i = b.mov(0);
        Reg acc = b.mov(0);
        BasicBlock head = b.block();
        Reg t = b.add(i, i);
        b.addInto(acc, acc, t);
        b.addInto(i, i, 1);
        Reg p = b.setp("LT", i, n);
        b.bra(head, p, false);
        b.block();
        b.store(out, acc);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        // n, i, acc and the address are all live through the loop: four distinct registers (plus a pair).
        Instr setp = head.instrs().get(3);
        Instr add = head.instrs().get(1);
        assertNotEquals(setp.srcs().get(1).value(), add.dsts().get(0));
    }

    @Test
    void diamondArmsShareRegistersAndJoinAgrees() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg p = b.setp("GT", x, 0);
        Reg r = b.r();
        Instr toElse = b.emit("BRA", List.of(), List.of(), List.of());
        toElse.setGuard(new Guard(p, true));
        BasicBlock thenArm = b.block();
        Reg t = b.add(x, 1);
        b.addInto(r, t, t);
        Instr toJoin = b.emit("BRA", List.of(), List.of(), List.of());
        BasicBlock elseArm = b.block();
        Reg e = b.add(x, 5);
        b.addInto(r, e, e);
        BasicBlock join = b.block();
        b.store(out, r);
        b.exit();
        toElse.srcs().add(org.jptxas.ori.ir.Src.of(elseArm.ref()));
        toJoin.srcs().add(org.jptxas.ori.ir.Src.of(join.ref()));
        OriFunction f = b.function();
        allocate(f, SM80);
        Reg rThen = thenArm.instrs().get(1).dsts().get(0);
        Reg rElse = elseArm.instrs().get(1).dsts().get(0);
        assertEquals(rThen, rElse);
        assertEquals(rThen, join.instrs().get(0).srcs().get(1).value());
        // t and e are never live together: the arms reuse one register.
        assertEquals(thenArm.instrs().get(0).dsts().get(0), elseArm.instrs().get(0).dsts().get(0));
    }

    @Test
    void tuplesAreAlignedUnderFragmentation() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg s0 = b.param(8);
        Reg s1 = b.param(12);
        Reg s2 = b.param(16);
        Reg v = b.load128(out);
        Reg w = b.wide(s0, out);
        b.store(out, v);
        b.store(w, s1);
        b.store(out, s2);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        Instr ldg = f.body().block(0).instrs().get(4);
        assertEquals(0, ldg.dsts().get(0).index() % 4, ldg.toString());
        assertEquals(4, ldg.dsts().get(0).comps());
    }

    private static OriFunction pressure(int values, Consumer<OriBuilder> extra) {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        List<Reg> vs = new ArrayList<>();
        for (int i = 0; i < values; i++) {
            vs.add(b.add(x, i + 1));
        }
        extra.accept(b);
        Reg acc = b.mov(0);
        for (Reg v : vs) {
            b.addInto(acc, acc, v);
        }
        b.store(out, acc);
        b.exit();
        return b.function(16);
    }

    @Test
    void highPressureSpillsToTheStackWithinTheLimit() {
        OriFunction f = pressure(40, b -> { });
        RegisterLimits limits = RegisterLimits.of(TestTargets.profile("sm_80"), OptionalInt.of(24), OptionalInt.empty());
        Allocation a = allocate(f, limits);
        assertTrue(a.registers() <= 24, a.toString());
        assertTrue(a.spillBytes() > 0);
        assertEquals(16 + a.spillBytes(), a.frameBytes());
        assertTrue(a.usesStackPointer());
        assertTrue(count(f, "STL") > 0 && count(f, "LDL") > 0);
        long stored = f.body().blocks().stream().flatMap(bb -> bb.instrs().stream())
                .filter(i -> i.op().name().equals("STL"))
                .mapToLong(i -> i.hasMod("128") ? 16 : i.hasMod("64") ? 8 : 4).sum();
        assertEquals(stored, a.spillStoreBytes(), IrPrinter.print(f));
        // Spill slots sit after the function's own 16 local bytes.
        for (BasicBlock bb : f.body().blocks()) {
            for (Instr in : bb.instrs()) {
                if (in.op().name().equals("STL")) {
                    assertTrue(((org.jptxas.ori.ir.Addr) in.srcs().get(0).value()).offset() >= 16);
                }
            }
        }
        // Without a limit, no spill: 40 values + acc + the pair fit.
        OriFunction g = pressure(40, b -> { });
        Allocation free = allocate(g, SM80);
        assertEquals(0, free.spillBytes());
        assertEquals(0, count(g, "STL"));
    }

    @Test
    void maxnregIsHonouredAndRaisedToThePtxasMinimum() {
        TargetProfile sm80 = TestTargets.profile("sm_80");
        assertEquals(24, RegisterLimits.of(sm80, OptionalInt.of(4), OptionalInt.empty()).maxRegisters());
        assertEquals(32, RegisterLimits.of(sm80, OptionalInt.of(40), OptionalInt.of(32)).maxRegisters());
        assertEquals(255, RegisterLimits.of(sm80, OptionalInt.of(300), OptionalInt.empty()).maxRegisters());
        assertEquals("For profile sm_80 adjusting per thread register count of 4 to lower bound of 24",
                RegisterLimits.adjustmentWarning(sm80.target(), 4).orElseThrow());
        assertEquals("Too big maxrregcount value specified 300, will be ignored",
                RegisterLimits.adjustmentWarning(sm80.target(), 300).orElseThrow());
        OriFunction f = pressure(40, b -> { });
        Allocation a = allocate(f, RegisterLimits.of(sm80, OptionalInt.empty(), OptionalInt.of(32)));
        assertTrue(a.registers() <= 32 && a.registers() >= 28, a.toString());
    }

    @Test
    void predicatesSpillThroughGeneralRegisters() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        List<Reg> ps = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ps.add(b.setp("GT", x, i));
        }
        Reg acc = b.mov(0);
        for (Reg p : ps) {
            Instr in = b.emit("IADD3", List.of(), List.of(acc), List.of(OriBuilder.s(acc), OriBuilder.s(1),
                    OriBuilder.s(Reg.RZ)));
            in.setGuard(new Guard(p, false));
        }
        b.store(out, acc);
        b.exit();
        OriFunction f = b.function();
        Allocation a = allocate(f, SM80);
        assertTrue(a.predicates() <= 7);
        assertTrue(count(f, "SEL") >= 3, IrPrinter.print(f));
        assertEquals(0, count(f, "STL"));
    }

    @Test
    void copiesCoalesce() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg y = b.mov(x);
        Reg z = b.add(y, 3);
        Reg w = b.mov(z);
        b.store(out, w);
        b.exit();
        OriFunction f = b.function();
        Allocation a = allocate(f, SM80);
        assertEquals(2, a.copiesRemoved());
        assertEquals(5, f.body().block(0).instrs().size());
    }

    @Test
    void precolouredRegistersAreKeptAndAvoided() {
        OriBuilder b = new OriBuilder();
        Reg incoming = Reg.phys(RegFile.R, 4, 1);
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg y = b.add(x, 1);
        Reg z = b.add(y, incoming);
        b.store(out, z);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        Instr add2 = f.body().block(0).instrs().get(3);
        assertEquals(Reg.phys(RegFile.R, 4, 1), add2.srcs().get(1).value());
        for (Instr in : f.body().block(0).instrs().subList(0, 3)) {
            for (Reg d : in.dsts()) {
                assertTrue(d.index() > 4 || d.index() + d.comps() <= 4, "clobbers R4: " + in);
            }
        }
    }

    @Test
    void guardedDefinitionDoesNotKill() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg p = b.setp("GT", x, 0);
        Reg v = b.mov(7);
        Reg t = b.add(x, x);
        Instr in = b.emit("MOV", List.of(), List.of(v), List.of(OriBuilder.s(t)));
        in.setGuard(new Guard(p, false));
        b.store(out, v);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        Instr guarded = f.body().block(0).instrs().stream().filter(i -> !i.guard().isAlways()).findFirst()
                .orElseThrow();
        assertNotEquals(guarded.srcs().get(0).value(), guarded.dsts().get(0), "t and v must not share: " + guarded);
    }

    /**
     * A loop-carried accumulator fragment of four scalars, gathered into a tuple for each HMMA and scattered back
     * from its result: the scalars become the tuple's parts and every copy goes, so the HMMA accumulates in place.
     */
    @Test
    void fragmentScalarsAccumulateInPlace() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg n = b.param(8);
        Reg[] acc = new Reg[4];
        for (int k = 0; k < 4; k++) {
            acc[k] = b.param(16 + 4 * k);
        }
        Reg a = b.load128(out);
        Reg i = b.mov(0);
        BasicBlock loop = b.block();
        Reg in = b.r(4);
        b.addInto(i, i, 1);
        for (int k = 0; k < 4; k++) {
            b.emit("MOV", List.of(), List.of(in.component(k)), List.of(OriBuilder.s(acc[k])));
        }
        Reg res = b.r(4);
        b.emit("HMMA", List.of("1688", "F32"), List.of(res), List.of(OriBuilder.s(a), OriBuilder.s(a),
                OriBuilder.s(in)));
        for (int k = 0; k < 4; k++) {
            b.emit("MOV", List.of(), List.of(acc[k]), List.of(OriBuilder.s(res.component(k))));
        }
        Reg p = b.setp("LT", i, n);
        b.bra(loop, p, false);
        b.block();
        for (int k = 0; k < 4; k++) {
            b.store(out, acc[k]);
        }
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        assertEquals(0, loop.instrs().stream().filter(x -> x.op().name().equals("MOV")).count(),
                IrPrinter.print(f));
        Instr hmma = loop.instrs().stream().filter(x -> x.op().name().equals("HMMA")).findFirst().orElseThrow();
        assertEquals(hmma.dsts().get(0), hmma.srcs().get(2).value(), IrPrinter.print(f));
    }

    /** A scalar gathered at different parts of two tuples is not promoted; the copies stay and stay correct. */
    @Test
    void inconsistentFragmentsKeepTheirCopies() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg y = b.param(12);
        Reg t = b.r(2);
        b.emit("MOV", List.of(), List.of(t.component(0)), List.of(OriBuilder.s(x)));
        b.emit("MOV", List.of(), List.of(t.component(1)), List.of(OriBuilder.s(y)));
        b.store(out, t);
        Reg u = b.r(2);
        b.emit("MOV", List.of(), List.of(u.component(0)), List.of(OriBuilder.s(y)));
        b.emit("MOV", List.of(), List.of(u.component(1)), List.of(OriBuilder.s(x)));
        b.store(out, u);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        assertTrue(count(f, "MOV") >= 4, IrPrinter.print(f));
    }

    @Test
    void partsOfTuplesLandOnTheirComponents() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg wide = b.r(2);
        // wide.lo = x + 1 ; wide.hi = x ; then a 64-bit store of wide, and of out + wide via parts.
        b.emit("IADD3", List.of(), List.of(wide.component(0)), List.of(OriBuilder.s(x), OriBuilder.s(1),
                OriBuilder.s(Reg.RZ)));
        b.emit("MOV", List.of(), List.of(wide.component(1)), List.of(OriBuilder.s(x)));
        b.store(out, wide);
        Reg sum = b.r(2);
        b.emit("IADD3", List.of(), List.of(sum.component(0), Reg.PT), List.of(OriBuilder.s(out.component(0)),
                OriBuilder.s(wide.component(0)), OriBuilder.s(Reg.RZ)));
        b.emit("IADD3", List.of("X"), List.of(sum.component(1)), List.of(OriBuilder.s(out.component(1)),
                OriBuilder.s(wide.component(1)), OriBuilder.s(Reg.RZ)));
        b.store(sum, x);
        b.exit();
        OriFunction f = b.function();
        allocate(f, SM80);
        List<Instr> is = f.body().block(0).instrs();
        Reg w = (Reg) ((org.jptxas.ori.ir.Src) is.get(4).srcs().get(1)).value();
        assertEquals(2, w.comps());
        assertEquals(w.index(), is.get(2).dsts().get(0).index());
        assertEquals(w.index() + 1, is.get(3).dsts().get(0).index());
        assertEquals(is.get(5).dsts().get(0).index() + 1, is.get(6).dsts().get(0).index());
    }

    @Test
    void spilledTuplesReloadBeforePartWrites() {
        OriFunction f = pressure(30, b -> { });
        // Make a long-lived pair written by parts, so that it spills under a tight limit.
        OriBuilder b = new OriBuilder();
        Reg pair = b.r(2);
        b.emit("MOV", List.of(), List.of(pair.component(0)), List.of(OriBuilder.s(7)));
        b.emit("MOV", List.of(), List.of(pair.component(1)), List.of(OriBuilder.s(8)));
        Reg x = b.param(8);
        List<Reg> vs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            vs.add(b.add(x, i + 1));
        }
        Reg acc = b.mov(0);
        for (int round = 0; round < 3; round++) {
            for (Reg v : vs) {
                b.addInto(acc, acc, v);
            }
        }
        b.emit("IADD3", List.of(), List.of(pair.component(1)), List.of(OriBuilder.s(pair.component(1)),
                OriBuilder.s(acc), OriBuilder.s(Reg.RZ)));
        Reg out = b.param64(0);
        b.store(out, pair);
        b.exit();
        OriFunction g = b.function();
        Allocation a = allocate(g, RegisterLimits.of(TestTargets.profile("sm_80"), OptionalInt.of(24), OptionalInt.empty()));
        assertTrue(a.spillBytes() > 0, a.toString());
        // The pair (long-lived, two uses) is the cheapest to spill: reloaded whole before its part is written.
        List<Instr> is = g.body().block(0).instrs();
        int partWrite = is.size() - 6;
        assertEquals("IADD3", is.get(partWrite).op().name(), IrPrinter.print(g));
        assertEquals("LDL", is.get(partWrite - 1).op().name(), IrPrinter.print(g));
        assertTrue(is.get(partWrite - 1).hasMod("64"), IrPrinter.print(g));
        assertTrue(f.body().instructionCount() > 0);
    }

    @Test
    void constantsAreRematerializedInsteadOfSpilled() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        List<Reg> vs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            vs.add(b.param(8 + 4 * i));
        }
        Reg acc = b.mov(0);
        for (Reg v : vs) {
            b.addInto(acc, acc, v);
        }
        b.store(out, acc);
        b.exit();
        OriFunction f = b.function();
        Allocation a = allocate(f, RegisterLimits.of(TestTargets.profile("sm_80"), OptionalInt.of(24), OptionalInt.empty()));
        assertEquals(0, count(f, "STL"), IrPrinter.print(f));
        assertEquals(0, a.spillBytes());
        assertTrue(a.registers() <= 24);
    }

    @Test
    void deviceFunctionResultsSurviveUntilRet() {
        OriBuilder b = new OriBuilder();
        Reg r4 = Reg.phys(RegFile.R, 4, 1);
        Reg r5 = Reg.phys(RegFile.R, 5, 1);
        Reg x = b.r();
        b.emit("MOV", List.of(), List.of(x), List.of(OriBuilder.s(r4)));
        Reg y = b.add(x, 1);
        b.emit("MOV", List.of(), List.of(r4), List.of(OriBuilder.s(y)));
        Reg z = b.add(x, 2);
        Reg w = b.add(z, z);
        b.emit("MOV", List.of(), List.of(r5), List.of(OriBuilder.s(w)));
        b.emit("RET", List.of("REL", "NODEC"), List.of(), List.of());
        OriFunction f = new OriFunction("f", false, 1, b.body, org.jptxas.ori.ir.FunctionAttrs.NONE);
        allocate(f, SM80);
        for (Instr in : f.body().block(0).instrs()) {
            Instr movR4 = f.body().block(0).instrs().stream()
                    .filter(i -> i.dsts().size() == 1 && i.dsts().get(0).equals(r4)).findFirst().orElse(null);
            int at = f.body().block(0).instrs().indexOf(movR4);
            if (movR4 != null && f.body().block(0).instrs().indexOf(in) > at) {
                for (Reg d : in.dsts()) {
                    assertNotEquals(r4, d, "result R4 overwritten before RET: " + IrPrinter.print(f));
                }
            }
        }
    }

    /**
     * A subroutine that returns early ({@code @P RET} at its start) and later calls: the registers the call clobbers
     * (P0-P6 among them) are not results, so they are not live from the entry to the early return, and the early
     * return's predicate finds a register. (Counted as results, all seven predicates were busy there and allocation
     * failed: "no P register left for a value that cannot be spilled".)
     */
    @Test
    void callClobbersAreNotLiveAtAnEarlyReturn() {
        OriBuilder b = new OriBuilder();
        Reg x = b.r();
        b.emit("MOV", List.of(), List.of(x), List.of(OriBuilder.s(Reg.phys(RegFile.R, 4, 1))));
        Reg p = b.setp("EQ", x, Reg.RZ);
        Instr early = b.emit("RET", List.of("REL", "NODEC"), List.of(), List.of(OriBuilder.s(Reg.phys(RegFile.R, 8, 1)),
                OriBuilder.s(Reg.phys(RegFile.R, 9, 1))));
        early.setGuard(new Guard(p, false));
        b.block();
        List<Reg> clobbers = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            clobbers.add(Reg.phys(RegFile.P, i, 1));
        }
        b.emit("MOV", List.of(), List.of(Reg.phys(RegFile.R, 4, 1)), List.of(OriBuilder.s(x)));
        b.emit("CALL", List.of("REL", "NOINC"), clobbers, List.of(OriBuilder.s(new org.jptxas.ori.ir.Sym("g",
                org.jptxas.ori.ir.Sym.Kind.FUNCTION)), OriBuilder.s(Reg.phys(RegFile.R, 4, 1))));
        b.emit("RET", List.of("REL", "NODEC"), List.of(), List.of(OriBuilder.s(Reg.phys(RegFile.R, 8, 1)),
                OriBuilder.s(Reg.phys(RegFile.R, 9, 1))));
        OriFunction f = new OriFunction("f", false, 1, b.body, org.jptxas.ori.ir.FunctionAttrs.NONE);
        allocate(f, SM80);
        Reg guard = f.body().block(0).last().guard().predicate();
        assertEquals(RegFile.P, guard.file());
        assertFalse(guard.virtual());
    }

    /**
     * A subroutine's wide arguments and result travel in the convention's pairs (R4/R5, R6/R7), copied part by part
     * (here one pair's parts in swapped order, as the scheduler may leave them): the values merge into those fixed
     * pairs and every copy goes, DMUL R4, R4, R6 alone before the RET.
     */
    @Test
    void wideArgumentAndResultCopiesCoalesceIntoTheConventionsPairs() {
        OriBuilder b = new OriBuilder();
        Reg a = b.r(2);
        Reg c = b.r(2);
        Reg d = b.r(2);
        b.emit("MOV", List.of(), List.of(a.component(0)), List.of(OriBuilder.s(Reg.phys(RegFile.R, 4, 1))));
        b.emit("MOV", List.of(), List.of(a.component(1)), List.of(OriBuilder.s(Reg.phys(RegFile.R, 5, 1))));
        b.emit("MOV", List.of(), List.of(c.component(1)), List.of(OriBuilder.s(Reg.phys(RegFile.R, 7, 1))));
        b.emit("MOV", List.of(), List.of(c.component(0)), List.of(OriBuilder.s(Reg.phys(RegFile.R, 6, 1))));
        b.emit("DMUL", List.of(), List.of(d), List.of(OriBuilder.s(a), OriBuilder.s(c)));
        b.emit("MOV", List.of(), List.of(Reg.phys(RegFile.R, 4, 1)), List.of(OriBuilder.s(d.component(0))));
        b.emit("MOV", List.of(), List.of(Reg.phys(RegFile.R, 5, 1)), List.of(OriBuilder.s(d.component(1))));
        b.emit("RET", List.of("REL", "NODEC"), List.of(), List.of(OriBuilder.s(Reg.phys(RegFile.R, 8, 1)),
                OriBuilder.s(Reg.phys(RegFile.R, 9, 1))));
        OriFunction f = new OriFunction("f", false, 1, b.body, org.jptxas.ori.ir.FunctionAttrs.NONE);
        allocate(f, SM80);
        List<Instr> is = f.body().block(0).instrs();
        assertEquals(2, is.size(), IrPrinter.print(f));
        assertEquals(List.of(Reg.phys(RegFile.R, 4, 2)), is.get(0).dsts(), IrPrinter.print(f));
        assertEquals(Reg.phys(RegFile.R, 4, 2), is.get(0).srcs().get(0).value(), IrPrinter.print(f));
        assertEquals(Reg.phys(RegFile.R, 6, 2), is.get(0).srcs().get(1).value(), IrPrinter.print(f));
    }

    @Test
    void sameInputSameAllocation() {
        String first = null;
        for (int i = 0; i < 3; i++) {
            OriFunction f = pressure(30, b -> { });
            allocate(f, RegisterLimits.of(TestTargets.profile("sm_80"), OptionalInt.of(24), OptionalInt.empty()));
            String text = IrPrinter.print(f);
            if (first == null) {
                first = text;
            }
            assertEquals(first, text);
        }
    }

    @Test
    void uniformRegistersNeedSm75() {
        OriBuilder b = new OriBuilder();
        Reg u = b.ur();
        b.emit("MOV", List.of(), List.of(u), List.of(OriBuilder.s(1)));
        b.exit();
        assertThrows(RegisterAllocationException.class,
                () -> RegisterAllocator.allocate(b.function(), new RegisterLimits(255, false, List.of(), List.of())));
    }

    @Test
    void verifierTellsAnEightRegisterTupleFromTheRegisterAfterIt() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg t = b.r(8); // DMMA.16x8x4's accumulator; y is the next virtual register
        Reg y = b.add(x, 1);
        b.emit("DMMA", List.of("16x8x4"), List.of(t), List.of(OriBuilder.s(x), OriBuilder.s(x), OriBuilder.s(x)));
        b.store(out, y);
        b.exit();
        Assignment apart = new Assignment();
        apart.assign(out, 2);
        apart.assign(x, 0);
        apart.assign(y, 4);
        apart.assign(t, 8);
        assertEquals(List.of(), AllocationVerifier.verify(b.body, apart, SM80));
        Assignment over = new Assignment();
        over.assign(out, 2);
        over.assign(x, 0);
        over.assign(y, 12); // the tuple's write over R8..R15 clobbers y before its store reads it
        over.assign(t, 8);
        assertFalse(AllocationVerifier.verify(b.body, over, SM80).isEmpty());
    }

    @Test
    void verifierCatchesSharedRegistersAndMisalignment() {
        OriBuilder b = new OriBuilder();
        Reg out = b.param64(0);
        Reg x = b.param(8);
        Reg y = b.add(x, 1);
        Reg z = b.add(x, y);
        b.store(out, z);
        b.exit();
        Assignment good = new Assignment();
        good.assign(out, 2);
        good.assign(x, 0);
        good.assign(y, 4);
        good.assign(z, 0);
        assertEquals(List.of(), AllocationVerifier.verify(b.body, good, SM80));
        Assignment clash = new Assignment();
        clash.assign(out, 2);
        clash.assign(x, 0);
        clash.assign(y, 0); // overwrites x while x is still needed by z
        clash.assign(z, 0);
        assertFalse(AllocationVerifier.verify(b.body, clash, SM80).isEmpty());
        Assignment odd = new Assignment();
        odd.assign(out, 3);
        odd.assign(x, 0);
        odd.assign(y, 4);
        odd.assign(z, 0);
        assertTrue(AllocationVerifier.verify(b.body, odd, SM80).get(0).contains("aligned"));
        Assignment sp = new Assignment();
        sp.assign(out, 2);
        sp.assign(x, 1);
        sp.assign(y, 4);
        sp.assign(z, 0);
        assertFalse(AllocationVerifier.verify(b.body, sp, SM80).isEmpty());
    }
}
