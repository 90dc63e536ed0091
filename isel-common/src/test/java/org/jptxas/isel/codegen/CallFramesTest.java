package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/** The after-allocation half of the calling convention on an allocated subroutine and on a kernel. */
class CallFramesTest {
    /** The line of {@code text} in {@code sm}'s encoding, typed as selection makes it. */
    private static CodeLine typed(String sm, String text) {
        return new CodeLine(null, text, text, null, null, 0, assembler(sm).select(text, 0, label -> 0));
    }

    private static SassAssembler assembler(String sm) {
        return new SassAssembler(TestTargets.of(sm).isa());
    }

    private static final OriOpcodes OPS = OriOpcodes.get();

    private static Reg r(int i) {
        return Reg.phys(RegFile.R, i, 1);
    }

    private static Instr mov(Reg d, Reg s) {
        return new Instr(OPS.require("MOV"), List.of(), List.of(d), List.of(Src.of(s)), Guard.ALWAYS, 0);
    }

    private static OriFunction function(String name, boolean entry, List<Instr> code) {
        FunctionBody body = new FunctionBody();
        BasicBlock b = body.addBlock(null);
        b.instrs().addAll(code);
        return new OriFunction(name, entry, 1, body, FunctionAttrs.NONE);
    }

    private static Instr call(String target) {
        return new Instr(OPS.require("CALL"), List.of("REL", "NOINC"), List.of(r(0), r(4), r(20), r(21)),
                List.of(Src.of(new Sym(target, Sym.Kind.FUNCTION)), Src.of(r(4))), Guard.ALWAYS, 0);
    }

    private static String text(OriFunction f) {
        return f.body().blocks().get(0).instrs().stream().map(Instr::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void subroutineSavesWhatItWritesAndItsReturnAddressAroundItsCalls() {
        Instr ret = new Instr(OPS.require("RET"), List.of("REL", "NODEC"), List.of(),
                List.of(Src.of(r(20)), Src.of(r(21)), Src.of(new Sym("k", Sym.Kind.FUNCTION))), Guard.ALWAYS, 0);
        OriFunction f = function("$k$f", false, new java.util.ArrayList<>(List.of(mov(r(16), r(4)), call("$k$f"),
                mov(r(4), r(16)), mov(r(3), r(4)), ret)));
        RegisterAllocator.Result out = CallFrames.afterAllocation(f, new RegisterAllocator.Result(20, 0, 0, 0));
        List<Instr> is = f.body().blocks().get(0).instrs();
        String t = text(f);
        // R16 (callee-saved, written) and R20/R21 (its call overwrites them) are saved; R3, R4 are not
        assertEquals(16, out.frameBytes(), t); // 12 bytes of saves, 16-aligned because it calls
        assertEquals("IADD3", is.get(0).op().name(), t);
        assertEquals(3, is.stream().filter(i -> i.op().name().equals("STL")).count(), t);
        assertEquals(3, is.stream().filter(i -> i.op().name().equals("LDL")).count(), t);
        assertFalse(t.contains("STL [R1+0xc], R3") || t.contains(", R3\nLDL"), t);
        // the call gets its return-address moves and loses its clobber list; RET names the pair after the reloads
        int c = is.indexOf(is.stream().filter(i -> i.op().name().equals("CALL")).findFirst().orElseThrow());
        assertTrue(is.get(c).dsts().isEmpty() && is.get(c).srcs().size() == 1, t);
        assertEquals(r(20), is.get(c - 2).dsts().get(0), t);
        assertEquals(r(21), is.get(c - 1).dsts().get(0), t);
        Instr last = is.get(is.size() - 1);
        assertEquals("RET", last.op().name());
        assertEquals(Reg.phys(RegFile.R, 20, 2), last.srcs().get(0).value());
        assertEquals("IADD3", is.get(is.size() - 2).op().name(), t);
        assertEquals("LDL", is.get(is.size() - 3).op().name(), t);
    }

    @Test
    void kernelWithoutSpillsKeepsItsFrameAndReturnAddressesAreResolved() {
        OriFunction k = function("k", true, new java.util.ArrayList<>(List.of(mov(r(4), r(2)), call("$k$f"),
                new Instr(OPS.require("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0))));
        RegisterAllocator.Result out = CallFrames.afterAllocation(k, new RegisterAllocator.Result(20, 0, 0, 0));
        assertEquals(0, out.frameBytes());
        assertEquals(0, k.body().blocks().get(0).instrs().stream().filter(i -> i.op().name().equals("STL")).count());
        List<CodeLine> code = List.of(typed("sm_80", "MOV R4, R2"), typed("sm_80", "MOV R20, 0xfffff0"),
                typed("sm_80", "MOV R21, 0x0"), typed("sm_80", "CALL.REL.NOINC `($k$f)"), typed("sm_80", "EXIT"));
        List<CodeLine> done = CallFrames.finishCalls(code, "k", assembler("sm_80").isa());
        assertEquals("MOV R20, 0x40", done.get(1).text()); // the instruction after the call
        assertEquals("MOV R20, 0x40", done.get(1).assembly());
    }

    @Test
    void callIntoAnotherObjectIsAbsoluteAndRelocated() {
        Instr call = new Instr(OPS.require("CALL"), List.of("ABS", "NOINC"), List.of(r(0), r(4), r(20), r(21)),
                List.of(Src.of(new Sym("ext", Sym.Kind.FUNCTION)), Src.of(r(4))), Guard.ALWAYS, 0);
        OriFunction k = function("k", true, new java.util.ArrayList<>(List.of(call,
                new Instr(OPS.require("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0))));
        CallFrames.afterAllocation(k, new RegisterAllocator.Result(20, 0, 0, 0));
        Instr c = k.body().blocks().get(0).instrs().stream().filter(i -> i.op().name().equals("CALL")).findFirst()
                .orElseThrow();
        // printed as a relocated half (encoded 0x0) until the layout names the callee
        assertEquals(new Sym("ext", Sym.Kind.FUNCTION, Sym.Part.LO32, 0), c.srcs().get(0).value());
        Sym lo = new Sym("ext", Sym.Kind.FUNCTION, Sym.Part.LO32, 0);
        List<CodeLine> code = List.of(typed("sm_80", "MOV R20, 0xfffff0"), typed("sm_80", "MOV R21, 0x0"),
                new CodeLine(null, "CALL.ABS.NOINC 32@lo(ext)", "CALL.ABS.NOINC 0x0", null, lo, 0,
                        typed("sm_80", "CALL.ABS.NOINC 0x0").op()), typed("sm_80", "EXIT"));
        List<CodeLine> done = CallFrames.finishCalls(code, "k", assembler("sm_80").isa());
        assertEquals("CALL.ABS.NOINC `(ext)", done.get(2).text());
        assertEquals("CALL.ABS.NOINC 0x0", done.get(2).assembly());
        assertEquals(typed("sm_80", "CALL.ABS.NOINC 0x0").op(), done.get(2).op(), "encoded 0x0 for the linker");
        assertEquals(new Sym("ext", Sym.Kind.FUNCTION), done.get(2).symbol());
        // the return address: the kernel's own symbol plus the offset after the call, for the linker
        assertEquals("MOV R20, 0x0", done.get(0).assembly());
        assertEquals(new Sym("k", Sym.Kind.FUNCTION, Sym.Part.LO32, 0x30), done.get(0).symbol());
        assertEquals(new Sym("k", Sym.Kind.FUNCTION, Sym.Part.HI32, 0x30), done.get(1).symbol());
        assertTrue(CallFrames.isSectionRelative(done.get(0)) && CallFrames.isSectionRelative(done.get(1)));
    }

    @Test
    void calleeKeepsItsCallersConvergenceBarrier() throws Exception {
        Instr bssy = new Instr(OPS.require("BSSY"), List.of(), List.of(),
                List.of(Src.of(new org.jptxas.ori.ir.BarrierReg(0)), Src.of(new org.jptxas.ori.ir.BlockLabel(0))),
                Guard.ALWAYS, 0);
        Instr bsync = new Instr(OPS.require("BSYNC"), List.of(), List.of(),
                List.of(Src.of(new org.jptxas.ori.ir.BarrierReg(0))), Guard.ALWAYS, 0);
        Instr ret = new Instr(OPS.require("RET"), List.of("REL", "NODEC"), List.of(),
                List.of(Src.of(r(20)), Src.of(r(21)), Src.of(new Sym("k", Sym.Kind.FUNCTION))), Guard.ALWAYS, 0);
        OriFunction f = function("$k$f", false, new java.util.ArrayList<>(List.of(mov(r(16), r(4)), bssy, bsync,
                mov(r(4), r(16)), ret)));
        ConvergenceBarrierSaves.insert(f, null);
        String t = text(f);
        List<Instr> is = f.body().blocks().get(0).instrs();
        // R16 is taken: the barrier waits in R17 (callee-saved), cleared at entry and restored before RET
        assertEquals("BMOV", is.get(0).op().name(), t);
        assertEquals(List.of("32", "CLEAR"), is.get(0).mods(), t);
        assertEquals(r(17), is.get(0).dsts().get(0), t);
        assertEquals("BMOV", is.get(is.size() - 2).op().name(), t);
        assertEquals(r(17), is.get(is.size() - 2).srcs().get(1).value(), t);
        // and the frame saves R17 like any callee-saved register the function writes
        CallFrames.afterAllocation(f, new RegisterAllocator.Result(20, 0, 0, 0));
        assertTrue(text(f).contains("R17"), text(f));
        assertEquals(2, f.body().blocks().get(0).instrs().stream().filter(i -> i.op().name().equals("STL")).count(),
                text(f));
        // a kernel has no caller: nothing to keep
        OriFunction k = function("k", true, new java.util.ArrayList<>(List.of(bssy, bsync)));
        ConvergenceBarrierSaves.insert(k, null);
        assertEquals(2, k.body().blocks().get(0).instrs().size());
    }

    @Test
    void calleeSavedSet() {
        assertTrue(CallFrames.calleeSaved(2) && CallFrames.calleeSaved(16) && CallFrames.calleeSaved(22));
        assertFalse(CallFrames.calleeSaved(0) || CallFrames.calleeSaved(3) || CallFrames.calleeSaved(15)
                || CallFrames.calleeSaved(20) || CallFrames.calleeSaved(21) || CallFrames.calleeSaved(255));
        assertEquals("k", CallFrames.ownerOf("$k$f"));
        assertEquals(null, CallFrames.ownerOf("k"));
    }

    private static Instr systemCall(Guard g) {
        return new Instr(OPS.require("CALL"), List.of("ABS", "NOINC"), List.of(r(0), r(4), r(20), r(21)),
                List.of(Src.of(Reg.phys(RegFile.R, 2, 2)), Src.of(r(4))), g, 0);
    }

    @Test
    void systemCallGetsAPcRelativeReturnAddress() {
        Reg p0 = Reg.phys(RegFile.P, 0, 1);
        OriFunction k = function("k", true, new java.util.ArrayList<>(List.of(systemCall(new Guard(p0, false)),
                new Instr(OPS.require("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0))));
        CallFrames.afterAllocation(k, new RegisterAllocator.Result(24, 0, 0, 0), false);
        List<Instr> is = k.body().blocks().get(0).instrs();
        String t = text(k);
        // LEPC R20; R20 += distance with the carry in a predicate other than the call's guard P0; CALL.ABS R2
        assertEquals(List.of("LEPC", "IADD3", "IADD3", "CALL", "EXIT"), is.stream().map(i -> i.op().name()).toList(), t);
        assertEquals(Reg.phys(RegFile.P, 1, 1), is.get(1).dsts().get(1), t);
        assertTrue(is.subList(0, 4).stream().allMatch(i -> i.guard().predicate().equals(p0)), t);
        assertEquals(List.of(Src.of(Reg.phys(RegFile.R, 2, 2))), is.get(3).srcs(), t);
        assertFalse(CallFrames.isIndirectCall(systemCall(Guard.ALWAYS)), "no convergence region of its own");

        List<CodeLine> code = List.of(typed("sm_80", "LEPC R20"), typed("sm_80", "IADD3 R20, P0, R20, 0xfffff8, RZ"),
                typed("sm_80", "IADD3.X R21, RZ, R21, RZ, P0, !PT"), typed("sm_80", "CALL.ABS.NOINC R2"), typed("sm_80", "EXIT"));
        List<CodeLine> done = CallFrames.finishCalls(code, "k", assembler("sm_80").isa());
        assertEquals("IADD3 R20, P0, R20, 0x40, RZ", done.get(1).text()); // from the LEPC to the EXIT
        assertEquals("CALL.ABS.NOINC R2", done.get(3).text());
        List<CodeLine> sm90 = CallFrames.finishCalls(List.of(typed("sm_80", "MOV R4, R2"), typed("sm_90", "LEPC R20, `(k)"),
                typed("sm_90", "CALL.ABS.NOINC R2"), typed("sm_90", "EXIT")), "k", assembler("sm_90").isa());
        String label = sm90.get(3).label();
        assertTrue(label != null, "the return point gets a label");
        assertEquals("LEPC R20, `(" + label + ")", sm90.get(1).text());
        assertEquals(label, sm90.get(1).op().target(), "the typed LEPC names the return point too");
        assertEquals(0x40, done.get(1).op().immediate(done.get(1).op().immediateSlot(3)));
    }

    @Test
    void recursiveCallOfAFunctionOfItsOwnBranchesToItsStartAsATypedRelativeCall() {
        Sym self = new Sym("k", Sym.Kind.FUNCTION, Sym.Part.LO32, 0);
        CodeLine call = typed("sm_80", "CALL.ABS.NOINC 0x0");
        List<CodeLine> code = List.of(typed("sm_80", "MOV R20, 0xfffff0"), typed("sm_80", "MOV R21, 0x0"),
                new CodeLine(null, "CALL.ABS.NOINC 32@lo(k)", "CALL.ABS.NOINC 0x0", null, self, 0, call.op()),
                typed("sm_80", "EXIT"));
        List<CodeLine> done = CallFrames.finishCalls(code, "k", assembler("sm_80").isa());
        CodeLine c = done.get(2);
        assertEquals("CALL.REL.NOINC `(k)", c.text());
        assertEquals(assembler("sm_80").respelled(call.op(), "CALL.REL.NOINC {}").orElseThrow().withTarget(0, "k"),
                c.op(), "the op its text assembles to");
        assertEquals("CALL.REL.NOINC", c.op().mnemonic());
        assertEquals("k", c.op().target());
        assertEquals(new Sym("k", Sym.Kind.FUNCTION), c.symbol());
        // the return address stays absolute and relocated; the listing names the return point
        assertTrue(CallFrames.isSectionRelative(done.get(0)) && CallFrames.isSectionRelative(done.get(1)));
        assertEquals(done.get(3).label(), done.get(0).returnPoint());
        assertEquals("MOV R20, 32@lo((k + " + done.get(3).label() + "@srel))", done.get(0).text());
        assertEquals(0, done.get(0).op().immediate(done.get(0).op().immediateSlot(1)), "encoded 0x0 for the linker");
    }

    @Test
    void addressesOfFunctionsInTheSectionAreResolvedInTheTypedInstruction() {
        CodeLine lo = new CodeLine(null, "MOV R4, 32@lo($k$f)", "MOV R4, 0x0", null,
                new Sym("$k$f", Sym.Kind.FUNCTION, Sym.Part.LO32, 0), 0, typed("sm_80", "MOV R4, 0x0").op());
        CodeLine hi = new CodeLine(null, "MOV R5, 32@hi($k$f)", "MOV R5, 0x0", null,
                new Sym("$k$f", Sym.Kind.FUNCTION, Sym.Part.HI32, 0), 0, typed("sm_80", "MOV R5, 0x0").op());
        List<CodeLine> out = CallFrames.resolveFunctionAddresses(List.of(lo, hi), java.util.Map.of("k", 0L, "$k$f", 0x180L));
        assertEquals("MOV R4, 0x180", out.get(0).text());
        assertEquals(0x180, out.get(0).op().immediate(out.get(0).op().immediateSlot(1)));
        assertEquals(null, out.get(0).symbol(), "nothing left to relocate");
        assertEquals("MOV R5, 0x0", out.get(1).text());
        assertEquals(null, out.get(1).symbol());
    }

    @Test
    void frameAdjustmentFollowsTheStackPointerSetUpWhereverTheSchedulerPutIt() {
        Reg sp = r(1);
        Instr zero = mov(r(5), Reg.RZ);
        Instr init = new Instr(OPS.require("MOV"), List.of(), List.of(sp),
                List.of(Src.of(org.jptxas.ori.ir.CBank.of(0, 0x28))), Guard.ALWAYS, 0);
        OriFunction k = function("k", true, new java.util.ArrayList<>(List.of(zero, init, call("$k$f"),
                new Instr(OPS.require("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0))));
        CallFrames.afterAllocation(k, new RegisterAllocator.Result(24, 4, 0, 0));
        List<Instr> is = k.body().blocks().get(0).instrs();
        int set = is.indexOf(init);
        int grow = is.indexOf(is.stream().filter(i -> i.op().name().equals("IADD3")).findFirst().orElseThrow());
        assertTrue(grow > set, "the frame grows after R1 is loaded\n" + text(k));
    }
}
