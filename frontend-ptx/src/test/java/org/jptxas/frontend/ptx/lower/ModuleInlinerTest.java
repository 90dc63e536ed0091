package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;

/** {@link ModuleInliner} on modules the real front end lowers: calls vanish, the result verifies, errors are named. */
class ModuleInlinerTest {
    private static final String HEADER = ".version 8.5\n.target sm_80\n.address_size 64\n";

    private static PtxFrontEnd.CheckedModule check(String ptx) throws CompilationException {
        return TestFrontEnds.of(Target.of("sm_80")).check("t.ptx", ptx);
    }

    private static long count(OriFunction f, String op) {
        return f.body().blocks().stream().flatMap(b -> b.instrs().stream()).filter(i -> i.op().name().equals(op)).count();
    }

    /** {@code f} is well-formed IR (a function keeping calls still reads and writes the convention's registers). */
    private static void assertWellFormed(OriFunction f) {
        List<String> problems = IrVerifier.verify(f.name(), f.body());
        assertTrue(problems.isEmpty(), () -> problems + "\n" + IrPrinter.print(f));
    }

    private static void assertVerifies(OriFunction f) {
        List<String> problems = IrVerifier.verify(f.name(), f.body());
        assertTrue(problems.isEmpty(), () -> problems + "\n" + IrPrinter.print(f));
        // no calling-convention register (R4...) is left: the inliner rewrote every parameter and result copy
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                List<org.jptxas.ori.ir.Reg> regs = new java.util.ArrayList<>(in.dsts());
                regs.addAll(in.usedRegs());
                for (org.jptxas.ori.ir.Reg r : regs) {
                    assertTrue(r.virtual() || r.isZero() || r.index() == 1, () -> in + "\n" + IrPrinter.print(f));
                }
            }
        }
    }

    @Test
    void callsStayCallsToCopiesInEachKernelsSection() throws CompilationException {
        String ptx = HEADER + """
                .func (.param .b32 r) twice(.param .b32 x)
                {
                    .reg .b32 %r<3>;
                    ld.param.b32 %r1, [x];
                    add.s32 %r2, %r1, %r1;
                    st.param.b32 [r], %r2;
                    ret;
                }
                .func (.param .b32 r) quad(.param .b32 x)
                {
                    .reg .b32 %r<4>;
                    ld.param.b32 %r1, [x];
                    {
                    .param .b32 a; .param .b32 b;
                    st.param.b32 [a], %r1;
                    call.uni (b), twice, (a);
                    ld.param.b32 %r2, [b];
                    }
                    {
                    .param .b32 a; .param .b32 b;
                    st.param.b32 [a], %r2;
                    call.uni (b), twice, (a);
                    ld.param.b32 %r3, [b];
                    }
                    st.param.b32 [r], %r3;
                    ret;
                }
                .visible .entry k(.param .u64 out, .param .u32 v)
                {
                    .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
                    ld.param.u64 %rd1, [out];
                    ld.param.u32 %r1, [v];
                    setp.eq.u32 %p1, %r1, 0;
                    {
                    .param .b32 a; .param .b32 b;
                    st.param.b32 [a], %r1;
                    @%p1 call.uni (b), quad, (a);
                    ld.param.b32 %r2, [b];
                    }
                    st.global.u32 [%rd1], %r2;
                    ret;
                }
                """;
        OriModule raw = check(ptx).lowerWithoutInlining();
        assertEquals(3, raw.functions().size());
        OriModule m = ModuleInliner.inline(raw);
        // every call stays a call, as ptxas keeps them: the kernel's section gets a copy of each function it reaches
        assertEquals(List.of("k", "$k$quad", "$k$twice"), m.functions().stream().map(OriFunction::name).toList());
        OriFunction k = m.functions().get(0);
        for (OriFunction f : m.functions()) {
            assertWellFormed(f);
        }
        List<Instr> kCalls = instrs(k).stream().filter(i -> i.op().name().equals("CALL")).toList();
        assertEquals(1, kCalls.size(), IrPrinter.print(k));
        assertTrue(kCalls.get(0).guard().predicate() != null && !kCalls.get(0).guard().isAlways(),
                kCalls.get(0).toString()); // the guarded call stays guarded
        assertEquals(1, count(k, "EXIT"));
        assertEquals(2, count(m.functions().get(1), "CALL"));
        // internal subroutines: one word passed each way, so twice returns through R6/R7, just above R4, and quad,
        // which calls twice, through the pair above twice's
        int[] pairs = {8, 6};
        for (int n = 0; n < 2; n++) {
            OriFunction sub = m.functions().get(n + 1);
            Instr ret = instrs(sub).stream().filter(i -> i.op().name().equals("RET")).findFirst().orElseThrow();
            assertEquals(org.jptxas.ori.ir.Reg.phys(org.jptxas.ori.ir.RegFile.R, pairs[n], 1), ret.srcs().get(0).value(),
                    IrPrinter.print(sub));
        }
        // the whole-program default does the same
        assertEquals(3, check(ptx).lower().functions().size());
        // relocatable output: functions of the module no other object may call are copies in the kernel's section ...
        OriModule internal = ModuleInliner.inlineKeepingFunctions(raw, name -> false);
        assertEquals(List.of("k", "$k$quad", "$k$twice"),
                internal.functions().stream().map(OriFunction::name).toList());
        assertEquals(List.of("REL", "NOINC"), instrs(internal.functions().get(0)).stream()
                .filter(i -> i.op().name().equals("CALL")).findFirst().orElseThrow().mods());
        // ... calls to exported ones stay true calls by symbol (CALL.ABS, relocated), as ptxas -c makes them
        OriModule kept = ModuleInliner.inlineKeepingFunctions(raw, name -> true);
        assertEquals(3, kept.functions().size());
        for (OriFunction f : kept.functions()) {
            for (Instr call : instrs(f).stream().filter(i -> i.op().name().equals("CALL")).toList()) {
                assertEquals(List.of("ABS", "NOINC"), call.mods(), call.toString());
                String callee = ((org.jptxas.ori.ir.Sym) call.srcs().get(0).value()).name();
                assertTrue(callee.equals("quad") || callee.equals("twice"), callee);
            }
        }
        assertEquals(1, count(kept.functions().stream().filter(f -> f.name().equals("k")).findFirst().orElseThrow(),
                "CALL"));
    }

    private static final String RECURSIVE = HEADER + """
            .func (.param .b32 r) f(.param .b32 x)
            {
                .reg .b32 %r<3>;
                ld.param.b32 %r1, [x];
                {
                .param .b32 a; .param .b32 b;
                st.param.b32 [a], %r1;
                call.uni (b), f, (a);
                ld.param.b32 %r2, [b];
                }
                st.param.b32 [r], %r2;
                ret;
            }
            .func (.param .b32 r) g(.param .b32 x)
            {
                .reg .b32 %r<3>;
                ld.param.b32 %r1, [x];
                add.s32 %r2, %r1, 1;
                st.param.b32 [r], %r2;
                ret;
            }
            .visible .entry k(.param .u32 v)
            {
                .reg .b32 %r<4>; .reg .b64 %rd<2>;
                ld.param.u32 %r1, [v];
                {
                .param .b32 a; .param .b32 b;
                st.param.b32 [a], %r1;
                call.uni (b), f, (a);
                ld.param.b32 %r2, [b];
                }
                mov.u64 %rd1, g;
                {
                .param .b32 a; .param .b32 b;
                st.param.b32 [a], %r2;
                proto : .callprototype (.param .b32 _) _ (.param .b32 _);
                call (b), %rd1, (a), proto;
                ld.param.b32 %r3, [b];
                }
                ret;
            }
            """;

    private static List<Instr> instrs(OriFunction f) {
        return f.body().blocks().stream().flatMap(b -> b.instrs().stream()).toList();
    }

    private static boolean physical(org.jptxas.ori.ir.Operand o, int index) {
        return o instanceof org.jptxas.ori.ir.Reg r && !r.virtual() && r.file() == org.jptxas.ori.ir.RegFile.R
                && r.index() == index;
    }

    @Test
    void recursionAndIndirectCallsStayTrueCallsWithTheConvention() throws CompilationException {
        OriModule m = check(RECURSIVE).lower();
        // the kernel, then a copy of each function it reaches by a true call or by address, by name, as ptxas lays them out
        assertEquals(List.of("k", "$k$f", "$k$g"), m.functions().stream().map(OriFunction::name).toList());
        OriFunction k = m.functions().get(0);
        List<Instr> calls = instrs(k).stream().filter(i -> i.op().name().equals("CALL")).toList();
        assertEquals(2, calls.size(), IrPrinter.print(k));
        Instr direct = calls.get(0);
        assertEquals("$k$f", ((org.jptxas.ori.ir.Sym) direct.srcs().get(0).value()).name());
        assertTrue(physical(direct.srcs().get(1).value(), 4), direct.toString()); // the argument in R4
        // the call clobbers the caller-saved registers and the return address, never R2 or R16 and up
        assertTrue(direct.dsts().stream().anyMatch(r -> physical(r, 0)) && direct.dsts().stream().anyMatch(r -> physical(r, 20)));
        assertTrue(direct.dsts().stream().noneMatch(r -> physical(r, 2) || physical(r, 16)), direct.toString());
        Instr indirect = calls.get(1);
        assertTrue(physical(indirect.srcs().get(0).value(), 6) && physical(indirect.srcs().get(1).value(), 7),
                indirect.toString()); // through R6/R7, relative to the kernel
        assertEquals("k", ((org.jptxas.ori.ir.Sym) indirect.srcs().get(2).value()).name());
        assertTrue(instrs(k).stream().anyMatch(i -> i.srcs().stream().anyMatch(s -> s.value() instanceof org.jptxas.ori.ir.Sym y
                && y.name().equals("$k$g") && y.part() == org.jptxas.ori.ir.Sym.Part.LO32)), IrPrinter.print(k));
        OriFunction f = m.functions().get(1);
        assertTrue(instrs(f).stream().anyMatch(i -> i.op().name().equals("CALL")
                && ((org.jptxas.ori.ir.Sym) i.srcs().get(0).value()).name().equals("$k$f")), IrPrinter.print(f));
        Instr ret = instrs(f).stream().filter(i -> i.op().name().equals("RET")).findFirst().orElseThrow();
        assertTrue(physical(ret.srcs().get(0).value(), 20) && physical(ret.srcs().get(1).value(), 21), ret.toString());
        // relocatable output keeps a recursive function as a function of its own, exported or not (as ptxas -c):
        // k calls it by symbol, and there is no copy in k's section
        for (java.util.function.Predicate<String> exported : List.<java.util.function.Predicate<String>>of(
                name -> false, "f"::equals)) {
            OriModule e = ModuleInliner.inlineKeepingFunctions(check(RECURSIVE).lowerWithoutInlining(), exported);
            assertTrue(e.functions().stream().noneMatch(x -> x.name().equals("$k$f")), e.functions().toString());
            assertTrue(e.functions().stream().anyMatch(x -> x.name().equals("f")));
            assertTrue(instrs(e.functions().get(0)).stream().anyMatch(i -> i.op().name().equals("CALL") && i.hasMod("ABS")
                    && ((org.jptxas.ori.ir.Sym) i.srcs().get(0).value()).name().equals("f")));
        }
    }

    /**
     * A callee, which would stay a subroutine, is inlined all the same when it takes a {@code .reg .pred} parameter: the convention passes general registers only
     * (ptxas 13 refuses the module: "passing predicate ... parameters to device functions is not supported").
     */
    @Test
    void aPredicateArgumentIsInlinedWhereTheCalleeWouldStayASubroutine() throws CompilationException {
        StringBuilder adds = new StringBuilder();
        for (int i = 0; i < 110; i++) {
            adds.append(" add.s32 %r").append(i + 2).append(", %r").append(i + 1).append(", ").append(i).append(";\n");
        }
        String callee = """
                .func (.param .b32 out) f(.param .b32 a, .reg .pred p)
                {
                 .reg .b32 %r<200>;
                 ld.param.b32 %r1, [a];
                """ + adds + """
                 selp.b32 %r150, %r111, %r1, p;
                 st.param.b32 [out], %r150;
                 ret;
                }
                """;
        String kernel = """
                .visible .entry k(.param .u64 o)
                {
                 .reg .b32 %r<10>; .reg .b64 %rd<3>; .reg .pred %p<3>;
                 mov.u32 %r1, %tid.x;
                 setp.gt.u32 %p1, %r1, 5;
                 { .param .b32 a; .param .b32 r; st.param.b32 [a], %r1; call (r), f, (a, %p1); ld.param.b32 %r2, [r]; }
                 setp.gt.u32 %p2, %r1, 9;
                 { .param .b32 a; .param .b32 r; st.param.b32 [a], %r2; call (r), f, (a, %p2); ld.param.b32 %r3, [r]; }
                 ld.param.u64 %rd1, [o];
                 cvta.to.global.u64 %rd2, %rd1;
                 st.global.u32 [%rd2], %r3;
                 ret;
                }
                """;
        OriModule m = check(HEADER + callee + kernel).lower();
        assertEquals(List.of("k"), m.functions().stream().map(OriFunction::name).toList());
        assertEquals(0, count(m.functions().get(0), "CALL"), IrPrinter.print(m.functions().get(0)));
        assertVerifies(m.functions().get(0));
    }

    /**
     * An internal subroutine taking two 32-byte arrays and a pointer (progminer's keccak) stays a call passing them
     * in R4...R23 (the second array aligned to its eight words) and returning through R24: more than the
     * convention's twelve words, as ptxas keeps such a call. Under {@code --maxrregcount 24} its words and return
     * pair would leave no register for the code, so it is inlined (ptxas moves the return address to the stack).
     */
    @Test
    void eighteenWordsStayACallUnlessTheRegisterLimitLeavesNoRoom() throws CompilationException {
        StringBuilder loads = new StringBuilder();
        StringBuilder stores = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            loads.append(" ld.param.u32 %r").append(i + 1).append(", [a+").append(4 * i).append("];\n");
            loads.append(" ld.param.u32 %r").append(i + 11).append(", [b+").append(4 * i).append("];\n");
            stores.append(" st.param.b32 [a+").append(4 * i).append("], %r").append(i + 1).append(";\n");
            stores.append(" st.param.b32 [b+").append(4 * i).append("], %r").append(i + 11).append(";\n");
        }
        String callee = ".func (.param .b32 out) f(.param .align 4 .b8 a[32], .param .b64 p, .param .align 4 .b8 b[32])\n"
                + "{\n .reg .b32 %r<40>; .reg .b64 %rd<3>;\n" + loads
                + " ld.param.u64 %rd1, [p];\n cvt.u32.u64 %r30, %rd1;\n"
                + " xor.b32 %r31, %r1, %r18;\n xor.b32 %r32, %r31, %r30;\n st.param.b32 [out], %r32;\n ret;\n}\n";
        String kernel = ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<40>; .reg .b64 %rd<3>;\n"
                + " mov.u32 %r1, %tid.x;\n"
                + java.util.stream.IntStream.range(2, 9).mapToObj(i -> " add.u32 %r" + i + ", %r1, " + i + ";\n")
                        .collect(java.util.stream.Collectors.joining())
                + java.util.stream.IntStream.range(11, 19).mapToObj(i -> " mul.lo.u32 %r" + i + ", %r1, " + i + ";\n")
                        .collect(java.util.stream.Collectors.joining())
                + " ld.param.u64 %rd1, [o];\n"
                + " { .param .align 4 .b8 a[32]; .param .b64 p; .param .align 4 .b8 b[32]; .param .b32 r;\n" + stores
                + " st.param.b64 [p], %rd1;\n call (r), f, (a, p, b);\n ld.param.b32 %r20, [r]; }\n"
                + " cvta.to.global.u64 %rd2, %rd1;\n st.global.u32 [%rd2], %r20;\n ret;\n}\n";
        PtxFrontEnd.CheckedModule checked = check(HEADER + callee + kernel);
        OriModule kept = checked.lower();
        assertEquals(List.of("k", "$k$f"), kept.functions().stream().map(OriFunction::name).toList());
        OriFunction f = kept.functions().get(1);
        Instr ret = instrs(f).stream().filter(i -> i.op().name().equals("RET")).findFirst().orElseThrow();
        assertEquals(org.jptxas.ori.ir.Reg.phys(org.jptxas.ori.ir.RegFile.R, 24, 1), ret.srcs().get(0).value(),
                IrPrinter.print(f));
        kept.functions().forEach(ModuleInlinerTest::assertWellFormed);
        OriModule inlined = checked.lower(java.util.OptionalInt.of(24));
        assertEquals(List.of("k"), inlined.functions().stream().map(OriFunction::name).toList());
        assertEquals(0, count(inlined.functions().get(0), "CALL"), IrPrinter.print(inlined.functions().get(0)));
        assertVerifies(inlined.functions().get(0));
        assertEquals(15, CallSequences.internalLastArg(24));
        assertEquals(21, CallSequences.internalLastArg(48), "eighteen words in R4...R21 and R22/R23: 24 of 48 registers");
        assertEquals(63, CallSequences.internalLastArg(255));
    }

    /**
     * Internal subroutines: each returns through a pair above its argument words and above the pairs of the
     * subroutines it calls (leaf: one word, R6; mid: two words and a call of leaf, R8), and a copy is specialized to
     * the constant its one caller passes (mid's flags word becomes its own constant, which the call no longer passes).
     */
    @Test
    void internalSubroutinesReturnAboveTheirCalleesAndTakeConstantArguments() throws CompilationException {
        String ptx = HEADER + """
                .func (.param .b32 r) leaf(.param .b32 x)
                {
                    .reg .b32 %r<3>;
                    ld.param.b32 %r1, [x];
                    add.s32 %r2, %r1, 1;
                    st.param.b32 [r], %r2;
                    ret;
                }
                .func (.param .b32 r) mid(.param .b32 x, .param .b32 flags)
                {
                    .reg .b32 %r<6>; .reg .pred %p<2>;
                    ld.param.b32 %r1, [x];
                    ld.param.b32 %r2, [flags];
                    and.b32 %r3, %r2, 1;
                    setp.ne.s32 %p1, %r3, 0;
                    { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1; call.uni (b), leaf, (a); ld.param.b32 %r4, [b]; }
                    selp.b32 %r5, %r4, %r1, %p1;
                    st.param.b32 [r], %r5;
                    ret;
                }
                .visible .entry k(.param .u64 out, .param .u32 v)
                {
                    .reg .b32 %r<4>; .reg .b64 %rd<2>;
                    ld.param.u64 %rd1, [out];
                    ld.param.u32 %r1, [v];
                    {
                    .param .b32 a; .param .b32 f; .param .b32 b;
                    st.param.b32 [a], %r1;
                    st.param.b32 [f], 1;
                    call.uni (b), mid, (a, f);
                    ld.param.b32 %r2, [b];
                    }
                    st.global.u32 [%rd1], %r2;
                    ret;
                }
                """;
        OriModule m = check(ptx).lower();
        assertEquals(List.of("k", "$k$leaf", "$k$mid"), m.functions().stream().map(OriFunction::name).toList());
        java.util.function.Function<OriFunction, Object> returnPair = f -> instrs(f).stream()
                .filter(i -> i.op().name().equals("RET")).findFirst().orElseThrow().srcs().get(0).value();
        assertEquals(org.jptxas.ori.ir.Reg.phys(org.jptxas.ori.ir.RegFile.R, 6, 1), returnPair.apply(m.functions().get(1)));
        assertEquals(org.jptxas.ori.ir.Reg.phys(org.jptxas.ori.ir.RegFile.R, 8, 1), returnPair.apply(m.functions().get(2)));
        Instr call = instrs(m.functions().get(0)).stream().filter(i -> i.op().name().equals("CALL")).findFirst()
                .orElseThrow();
        assertEquals(2, call.srcs().size(), call.toString()); // the target and x in R4: flags is mid's own
        assertTrue(instrs(m.functions().get(2)).stream().anyMatch(i -> i.op().name().equals("MOV")
                && i.srcs().get(0).value().equals(org.jptxas.ori.ir.Imm.ofInt(1))), IrPrinter.print(m.functions().get(2)));
        for (OriFunction f : m.functions()) {
            assertWellFormed(f);
        }
    }

    /**
     * A constant argument through two call levels, as ptxas 13 specializes it: k passes flags = 3 to f, which passes
     * its own flags on to g; g's copy moves 3 for its flags word (so its flags test folds), and f's call no longer
     * passes the word.
     */
    @Test
    void constantArgumentsReachTheCalleesOfSpecializedCallers() throws CompilationException {
        String ptx = HEADER + """
                .func g(.param .b64 g_p0, .param .b32 g_p1)
                {
                    .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
                    ld.param.u32 %r1, [g_p1];
                    ld.param.u64 %rd1, [g_p0];
                    setp.eq.s32 %p1, %r1, 0;
                    @%p1 bra $END;
                    st.u32 [%rd1], %r1;
                $END:
                    ret;
                }
                .func f(.param .b64 f_p0, .param .b32 f_p1)
                {
                    .reg .b32 %r<2>; .reg .b64 %rd<2>;
                    ld.param.u32 %r1, [f_p1];
                    ld.param.u64 %rd1, [f_p0];
                    st.u32 [%rd1+8], %r1;
                    { .param .b64 a; .param .b32 b; st.param.b64 [a], %rd1; st.param.b32 [b], %r1; call.uni g, (a, b); }
                    ret;
                }
                .visible .entry k(.param .u64 k_p)
                {
                    .reg .b64 %rd<2>;
                    ld.param.u64 %rd1, [k_p];
                    { .param .b64 a; .param .b32 b; st.param.b64 [a], %rd1; st.param.b32 [b], 3; call.uni f, (a, b); }
                    ret;
                }
                """;
        OriModule m = check(ptx).lower();
        assertEquals(List.of("k", "$k$f", "$k$g"), m.functions().stream().map(OriFunction::name).toList());
        OriFunction g = m.functions().get(2);
        assertTrue(instrs(g).stream().anyMatch(i -> i.op().name().equals("MOV")
                && i.srcs().get(0).value().equals(org.jptxas.ori.ir.Imm.ofInt(3))), IrPrinter.print(g));
        Instr call = instrs(m.functions().get(1)).stream().filter(i -> i.op().name().equals("CALL")).findFirst()
                .orElseThrow();
        assertEquals(3, call.srcs().size(), call.toString()); // the target and the pointer's two words
        for (OriFunction f : m.functions()) {
            assertWellFormed(f);
        }
    }

    @Test
    void callGraphFindsCycles() throws CompilationException {
        OriModule raw = check(RECURSIVE).lowerWithoutInlining();
        assertEquals(java.util.Set.of("f"), CallGraph.of(raw).recursive());
    }

    @Test
    void suiteCallKernelKeepsItsCalls() throws Exception {
        Path root = RepoRoot.find().orElse(null);
        org.jptxas.testing.Prerequisites.require(root != null, "repository root not found");
        Path file = root.resolve("kernels/call_func/call_func.ptx");
        OriModule m = TestFrontEnds.of(Target.of("sm_80")).check("call_func.ptx", Files.readString(file)).lower();
        assertEquals(List.of("call_func", "$call_func$_Z3mixii", "$call_func$_Z5scalePKfif"),
                m.functions().stream().map(OriFunction::name).toList());
        for (OriFunction f : m.functions()) {
            assertWellFormed(f);
        }
        assertEquals(3, count(m.functions().get(0), "CALL"));
    }

    /**
     * A whole-program compilation keeps a call to a system function (here {@code malloc}, inside an inlined helper)
     * as a true call of the ABI, {@code CALL.ABS} by name, for code generation to route through constant bank 4; the
     * kernel's callees name it (.nv.callgraph). Another function without a body is still refused.
     */
    @Test
    void systemCallsStayCallsInAWholeProgram() throws CompilationException {
        String ptx = HEADER + """
                .extern .func (.param .b64 r) malloc(.param .b64 n);
                .func (.param .b64 r) alloc(.param .b64 n)
                {
                    .reg .b64 %rd<3>;
                    ld.param.b64 %rd1, [n];
                    {
                    .param .b64 a; .param .b64 b;
                    st.param.b64 [a], %rd1;
                    call.uni (b), malloc, (a);
                    ld.param.b64 %rd2, [b];
                    }
                    st.param.b64 [r], %rd2;
                    ret;
                }
                .visible .entry k(.param .u64 out)
                {
                    .reg .b64 %rd<3>;
                    ld.param.u64 %rd1, [out];
                    {
                    .param .b64 a; .param .b64 b;
                    st.param.b64 [a], 64;
                    call.uni (b), alloc, (a);
                    ld.param.b64 %rd2, [b];
                    }
                    st.global.u64 [%rd1], %rd2;
                    ret;
                }
                """;
        OriModule m = check(ptx).lower();
        assertEquals(List.of("k", "$k$alloc"), m.functions().stream().map(OriFunction::name).toList());
        OriFunction k = m.functions().get(1);
        List<Instr> calls = instrs(k).stream().filter(i -> i.op().name().equals("CALL")).toList();
        assertEquals(1, calls.size(), IrPrinter.print(k));
        assertEquals(List.of("ABS", "NOINC"), calls.get(0).mods());
        assertEquals("malloc", ((org.jptxas.ori.ir.Sym) calls.get(0).srcs().get(0).value()).name());
        assertTrue(calls.get(0).srcs().stream().skip(1).allMatch(a -> a.value() instanceof org.jptxas.ori.ir.Reg r
                && !r.virtual() && r.index() >= 4), calls.get(0).toString()); // the size in R4/R5
        assertEquals(List.of("malloc"), k.attrs().callees());
        String other = ptx.replace("malloc", "my_alloc");
        CompilationException e = org.junit.jupiter.api.Assertions.assertThrows(CompilationException.class,
                () -> check(other).lower());
        assertTrue(e.getMessage().contains("call to external function 'my_alloc'"), e.getMessage());
    }

    @Test
    void divisionSlowPathsAreOneSubroutinePerKernelAndKind() throws CompilationException {
        String ptx = HEADER + """
                .func (.param .b32 r) ratio(.param .b32 x)
                {
                    .reg .f32 %f<3>;
                    ld.param.f32 %f1, [x];
                    div.rn.f32 %f2, 0f3F800000, %f1;
                    st.param.f32 [r], %f2;
                    ret;
                }
                .visible .entry k(.param .u64 p, .param .f32 a, .param .f32 b)
                {
                    .reg .f32 %f<9>; .reg .b64 %rd<3>;
                    ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b];
                    cvta.to.global.u64 %rd2, %rd1;
                    div.rn.f32 %f3, %f1, %f2;
                    div.rn.f32 %f4, %f2, %f1;
                    div.rn.ftz.f32 %f5, %f3, %f4;
                    {
                    .param .b32 x; .param .b32 y;
                    st.param.b32 [x], %f5;
                    call.uni (y), ratio, (x);
                    ld.param.b32 %f6, [y];
                    }
                    st.global.f32 [%rd2], %f6;
                    ret;
                }
                .visible .entry single(.param .u64 p, .param .f32 a)
                {
                    .reg .f32 %f<3>; .reg .b64 %rd<3>;
                    ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a];
                    cvta.to.global.u64 %rd2, %rd1;
                    div.rn.f32 %f2, %f1, %f1;
                    st.global.f32 [%rd2], %f2;
                    ret;
                }
                """;
        String noftz = "__internal_div_rn_noftz_f32_slowpath", ftz = "__internal_div_rn_ftz_f32_slowpath";
        OriModule m = check(ptx).lower();
        // each kernel gets its own copy of each slow path it uses (even a single use is a call, as ptxas makes it)
        assertEquals(List.of("k", "$k$" + ftz, "$k$" + noftz, "$k$ratio", "single", "$single$" + noftz),
                m.functions().stream().map(OriFunction::name).toList());
        OriFunction k = m.functions().get(0);
        List<String> callees = instrs(k).stream().filter(i -> i.op().name().equals("CALL"))
                .map(i -> ((org.jptxas.ori.ir.Sym) i.srcs().get(0).value()).name()).sorted().toList();
        // ratio stays a subroutine, and its division calls the kernel's copy too
        assertEquals(List.of("$k$" + ftz, "$k$" + noftz, "$k$" + noftz, "$k$ratio"), callees);
        assertEquals(List.of("$k$" + noftz), instrs(m.functions().get(3)).stream()
                .filter(i -> i.op().name().equals("CALL"))
                .map(i -> ((org.jptxas.ori.ir.Sym) i.srcs().get(0).value()).name()).toList());
        for (OriFunction f : m.functions().subList(1, 3)) {
            assertEquals(1, count(f, "RET"), f.name());
            assertEquals(0, count(f, "CALL"), f.name());
            assertEquals(0, count(f, "FCHK"), f.name()); // the slow path alone
        }
        // under -G and in relocatable output, too, the slow paths stay subroutines of the kernels, never functions
        for (OriModule kept : List.of(check(ptx).lowerKeepingFunctions(), check(ptx).lowerRelocatable())) {
            assertTrue(kept.functions().stream().noneMatch(f -> f.name().startsWith("__internal_")),
                    kept.functions().stream().map(OriFunction::name).toList().toString());
            assertTrue(kept.functions().stream().anyMatch(f -> f.name().equals("$single$" + noftz)));
        }
    }
}
