package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.cli.MalformedCubinToolsTest;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.simulator.suite.BackendSuiteTest;

/**
 * The cli module's gates fail on planted faults. Each gate's core takes its inputs (the kernels, the compiler, the
 * oracle) and returns its verdict; here it gets an empty kernel list, a compiler that throws, a compiler whose code
 * computes something else, a cubin with one encoding bit flipped, a listing with one wrong SASS line, an object for
 * another SM, and a known exception that no longer occurs, and must fail on each; on the real input it passes.
 *
 * <table>
 * <caption>Gates and the faults planted in them</caption>
 * <tr><th>gate</th><th>planted faults</th></tr>
 * <tr><td>the backends' end-to-end tests (BackendSuiteTest, SuiteRun.judge)</td><td>empty kernel list, crashing compiler, wrong code, stale
 * known entry</td></tr>
 * <tr><td>SyncSuiteEndToEndTest</td><td>empty kernel list, wrong code under strict convergence</td></tr>
 * <tr><td>CallsEndToEndTest</td><td>crashing compiler at -O0</td></tr>
 * <tr><td>OracleAcceptanceTest#readBack</td><td>empty list, crashing compiler, flipped encoding bit, wrong SASS
 * line</td></tr>
 * <tr><td>OracleAcceptanceTest#links</td><td>empty list, crashing compiler, object for another SM</td></tr>
 * <tr><td>CallCubinStructureTest#structureGate</td><td>empty list, crashing compiler, another kernel's cubin
 * </td></tr>
 * <tr><td>ReconvergencePlacementTest#barriers</td><td>crashing compiler, code without BSSY</td></tr>
 * <tr><td>VideoInstructionsOracleTest#gate</td><td>no SM, crashing compiler, code computing vsub for vadd</td></tr>
 * <tr><td>MalformedCubinToolsTest</td><td>no runs, a two-line diagnostic, a stack trace</td></tr>
 * <tr><td>OptReductionReportTest (its own #gateFailsOnPlantedFaults)</td><td>crashing lowering, no functions, no
 * input</td></tr>
 * </table>
 */
class CliGateFaultsTest {
    @TempDir
    Path dir;

    private static final KernelCase SAXPY = KernelSuite.byName("saxpy").orElseThrow();
    private static final int SUITE_PAIRS = SuiteRun.pairs(KernelSuite.all()).size();

    private static SuiteRun.Compiler throwing() {
        return (ptx, arch, options) -> {
            throw new IllegalStateException("planted compiler crash");
        };
    }

    /** jptxas on saxpy with its multiply-add turned into an add: compiles, and computes the wrong thing. */
    private SuiteRun.Compiler wrongCode() throws Exception {
        Path bad = dir.resolve("saxpy-add.ptx");
        Files.writeString(bad, Files.readString(SAXPY.ptx(), StandardCharsets.ISO_8859_1)
                .replaceAll("fma\\.rn\\.f32\\s+(%f\\d+), (%f\\d+), (%f\\d+), (%f\\d+)", "add.f32 $1, $3, $4"));
        SuiteRun jptxas = new SuiteRun();
        return (ptx, arch, options) -> jptxas.compile(bad, arch, options);
    }

    private static void fails(Runnable verdict, String expected) {
        AssertionFailedError e = assertThrows(AssertionFailedError.class, verdict::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    // ---------------------------------------------------------------- the suite end to end

    @Test
    void suiteGatePassesOnTheRealCompilerForOnePair() {
        SuiteRun.Outcome o = new SuiteRun().run(SAXPY, "sm_80", dir);
        assertTrue(SuiteRun.judge("suite", List.of(o), Map.of()).passes(1), o.detail());
    }

    @Test
    void suiteGateFailsOnAnEmptyKernelList() {
        List<SuiteRun.Outcome> none = new SuiteRun().runAll(List.of(), dir);
        fails(() -> BackendSuiteTest.gate(none, SUITE_PAIRS, Map.of()), "compared 0 items, fewer than the minimum " + SUITE_PAIRS);
    }

    @Test
    void suiteGateFailsOnACrashingCompiler() {
        SuiteRun.Outcome o = new SuiteRun(false, throwing()).run(SAXPY, "sm_80", dir);
        assertEquals(SuiteRun.Kind.CRASH, o.kind());
        fails(() -> BackendSuiteTest.gate(List.of(o), 1, Map.of()), "1 crashes of our code");
    }

    @Test
    void suiteGateFailsOnWrongCode() throws Exception {
        SuiteRun.Outcome o = new SuiteRun(false, wrongCode()).run(SAXPY, "sm_80", dir);
        assertEquals(SuiteRun.Kind.WRONG, o.kind(), o.detail());
        fails(() -> BackendSuiteTest.gate(List.of(o), 1, Map.of()), "saxpy sm_80: WRONG");
    }

    @Test
    void suiteGateFailsOnAStaleKnownEntry() {
        SuiteRun.Outcome o = new SuiteRun().run(SAXPY, "sm_80", dir);
        Gate gate = SuiteRun.judge("suite", List.of(o), Map.of("saxpy sm_80", "planted: listed although correct"));
        fails(() -> gate.verify(1), "known exceptions that no longer occur");
    }

    // ---------------------------------------------------------------- the sync kernels in strict convergence

    @Test
    void syncGateFailsOnAnEmptyKernelListAndOnWrongCode() throws Exception {
        int pairs = SuiteRun.pairs(SyncSuiteEndToEndTest.syncKernels()).size();
        fails(() -> SyncSuiteEndToEndTest.gate(new SuiteRun(true).runAll(List.of(), dir), pairs),
                "compared 0 items, fewer than the minimum " + pairs);
        SuiteRun.Outcome o = new SuiteRun(true, wrongCode()).run(SAXPY, "sm_90", dir);
        fails(() -> SyncSuiteEndToEndTest.gate(List.of(o), 1), "saxpy sm_90: WRONG");
    }

    // ---------------------------------------------------------------- calls at -O0 and -O3

    @Test
    void callsGateFailsOnACrashingCompiler() {
        KernelCase call = KernelSuite.byName("call_recursive").orElseThrow();
        fails(() -> CallsEndToEndTest.gate(new SuiteRun(true, throwing()), List.of(call), dir),
                "call_recursive sm_75 -O0: java.lang.IllegalStateException: planted compiler crash");
    }

    // ---------------------------------------------------------------- nvdisasm and cuobjdump read our cubins

    private static final List<SuiteRun.Pair> ONE = List.of(new SuiteRun.Pair(SAXPY, "sm_80"));

    /** jptxas, then {@code edit} on its result. */
    private static OracleAcceptanceTest.Compile edited(java.util.function.UnaryOperator<ModuleCodegen.Result> edit) {
        return (ptx, arch, relocatable, cuda12) -> edit.apply(OracleAcceptanceTest.JPTXAS.compile(ptx, arch,
                relocatable, cuda12));
    }

    private static ModuleCodegen.Result withCubin(ModuleCodegen.Result r, byte[] cubin) {
        return new ModuleCodegen.Result(cubin, r.functions(), r.sass(), r.resourceReport(), r.messages());
    }

    /** Flips bit {@code bit} of the first instruction of the first code section. */
    static byte[] flipCodeBit(byte[] cubin, int bit) {
        Cubin c = Cubin.read(cubin);
        Section text = c.textSections().get(0);
        byte[] code = text.data().clone();
        code[bit / 8] ^= (byte) (1 << (bit % 8));
        return c.withSection(c.sectionIndex(text.name()), text.withData(code)).write();
    }

    @Test
    void readBackGatePassesOnTheRealCompilerAndFailsOnEachPlantedFault() {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        assertTrue(OracleAcceptanceTest.readBack(ONE, OracleAcceptanceTest.JPTXAS, nvdisasm, cuobjdump, dir).passes(1));

        Gate empty = OracleAcceptanceTest.readBack(List.of(), OracleAcceptanceTest.JPTXAS, nvdisasm, cuobjdump, dir);
        fails(() -> empty.verify(SUITE_PAIRS), "compared 0 items");

        Gate crash = OracleAcceptanceTest.readBack(ONE, (p, a, r, c) -> {
            throw new IllegalStateException("planted compiler crash");
        }, nvdisasm, cuobjdump, dir);
        fails(() -> crash.verify(1), "1 crashes of our code");

        // bit 9 is in the opcode field of every SM's first instruction: the bits no longer say what we printed
        Gate flipped = OracleAcceptanceTest.readBack(ONE, edited(r -> withCubin(r, flipCodeBit(r.cubin(), 9))),
                nvdisasm, cuobjdump, dir);
        fails(() -> flipped.verify(1), "saxpy sm_80: nvdisasm");

        Gate wrongLine = OracleAcceptanceTest.readBack(ONE, edited(r -> new ModuleCodegen.Result(r.cubin(),
                r.functions(), r.sass().replaceFirst("EXIT ;", "EXIT.KEEPREFCOUNT ;"), r.resourceReport(),
                r.messages())), nvdisasm, cuobjdump, dir);
        assertFalse(wrongLine.passes(1));
        fails(() -> wrongLine.verify(1), "nvdisasm text differs from --out-sass");
    }

    // ---------------------------------------------------------------- nvlink links our objects

    @Test
    void linkGatePassesOnTheRealCompilerAndFailsOnEachPlantedFault() {
        Path nvlink13 = Oracles.assumeNvlink13();
        Path nvlink125 = Oracles.assumeNvlink();
        List<SuiteRun.Pair> sm90 = List.of(new SuiteRun.Pair(SAXPY, "sm_90"));
        assertTrue(OracleAcceptanceTest.links(sm90, OracleAcceptanceTest.JPTXAS, nvlink13, nvlink125, dir).passes(2));

        Gate empty = OracleAcceptanceTest.links(List.of(), OracleAcceptanceTest.JPTXAS, nvlink13, nvlink125, dir);
        fails(() -> empty.verify(2 * SUITE_PAIRS), "compared 0 items");

        Gate crash = OracleAcceptanceTest.links(sm90, (p, a, r, c) -> {
            throw new IllegalStateException("planted compiler crash");
        }, nvlink13, nvlink125, dir);
        fails(() -> crash.verify(1), "2 crashes of our code");

        // an object for sm_80 where sm_90 was asked for: both linkers refuse it
        Gate otherSm = OracleAcceptanceTest.links(sm90, (p, a, r, c) -> OracleAcceptanceTest.JPTXAS.compile(p, "sm_80",
                r, c), nvlink13, nvlink125, dir);
        fails(() -> otherSm.verify(2), "2 differences");
    }

    // ---------------------------------------------------------------- damaged cubins end in one line

    @Test
    void malformedCubinGateFailsOnNoRunsATwoLineDiagnosticAndATrace() {
        Gate clean = Gate.named("damaged cubins");
        MalformedCubinToolsTest.judge(clean, "cut", new MalformedCubinToolsTest.Outcome(255, "",
                "jcuobjdump fatal   : Malformed cubin 'x.cubin': not an ELF file\n"));
        assertTrue(clean.passes(1));

        int runs = org.jptxas.testing.gate.Figures.get("malformed.runs").value().intValue();
        fails(() -> Gate.named("damaged cubins").verify(runs), "compared 0 items, fewer than the minimum " + runs);

        Gate twoLines = Gate.named("damaged cubins");
        MalformedCubinToolsTest.judge(twoLines, "cut", new MalformedCubinToolsTest.Outcome(255, "",
                "jcuobjdump fatal   : Malformed cubin 'x.cubin'\n  section 3 runs past the end\n"));
        fails(() -> twoLines.verify(1), "not a one-line diagnostic: 2 lines");

        Gate trace = Gate.named("damaged cubins");
        MalformedCubinToolsTest.judge(trace, "flip", new MalformedCubinToolsTest.Outcome(1, "",
                "java.lang.ArrayIndexOutOfBoundsException: 9\n\tat org.jptxas.cubin.Cubin.read(Cubin.java:41)\n"));
        fails(() -> trace.verify(1), "stack trace or internal error");
    }

    // ---------------------------------------------------------------- call kernels carry ptxas's structure

    @Test
    void structureGateFailsOnAnEmptyListACrashAndAnotherKernelsCubin() {
        Oracles.assumePtxas13();
        KernelCase recursive = KernelSuite.byName("call_recursive").orElseThrow();
        KernelCase deep = KernelSuite.byName("call_deep_local").orElseThrow();
        List<KernelCase> one = List.of(recursive);
        int pairs = SuiteRun.pairs(one).size();
        assertTrue(CallCubinStructureTest.structureGate(one, new SuiteRun(), Map.of()).passes(pairs));
        fails(() -> CallCubinStructureTest.structureGate(List.of(), new SuiteRun(), Map.of()).verify(pairs), "compared 0 items");
        fails(() -> CallCubinStructureTest.structureGate(one, new SuiteRun(false, throwing()), Map.of()).verify(pairs),
                pairs + " crashes of our code");
        SuiteRun jptxas = new SuiteRun();
        SuiteRun other = new SuiteRun(false, (ptx, arch, options) -> jptxas.compile(deep.ptx(), arch, options));
        fails(() -> CallCubinStructureTest.structureGate(one, other, Map.of()).verify(pairs), pairs + " differences");
    }

    // ---------------------------------------------------------------- BSSY where ptxas has them

    @Test
    void barrierGateFailsOnACrashAndOnCodeWithoutBarriers() {
        Path nvdisasm = Oracles.assumeNvdisasm();
        KernelCase diverge = KernelSuite.byName("call_diverge").orElseThrow();
        List<KernelCase> one = List.of(diverge);
        ReconvergencePlacementTest.Barriers real = ReconvergencePlacementTest.barriers(one, new SuiteRun(), nvdisasm, dir);
        assertEquals(1, real.ptxasKernels(), real.report());
        assertTrue(real.gate().passes(1), real.report());
        fails(() -> ReconvergencePlacementTest.barriers(one, new SuiteRun(false, throwing()), nvdisasm, dir).gate()
                .verify(1), "1 crashes of our code");
        // saxpy's code (no divergent region) in place of call_diverge's
        SuiteRun jptxas = new SuiteRun();
        SuiteRun flat = new SuiteRun(false, (ptx, arch, options) -> jptxas.compile(SAXPY.ptx(), arch, options));
        fails(() -> ReconvergencePlacementTest.barriers(one, flat, nvdisasm, dir).gate().verify(1),
                "call_diverge: ptxas gives it");
    }

    // ---------------------------------------------------------------- video instructions against the model

    @Test
    void videoGateFailsOnNoSmACrashAndWrongCode() throws Exception {
        List<String> variants = List.of("vadd.u32.u32.u32 d, a, b;", "vabsdiff.s32.s32.s32.sat d, a, b;",
                "vmax2.u32.u32.u32.add d, a, b, c;");
        List<String> sm80 = List.of("sm_80");
        Gate real = VideoInstructionsOracleTest.gate(variants, sm80, false, VideoInstructionsOracleTest.JPTXAS, Map.of(),
                dir.resolve("real"));
        assertTrue(real.passes(1), real.summary());
        Gate none = VideoInstructionsOracleTest.gate(variants, List.of(), false, VideoInstructionsOracleTest.JPTXAS, Map.of(),
                dir.resolve("none"));
        fails(() -> none.verify(1), "compared 0 items");
        Gate crash = VideoInstructionsOracleTest.gate(variants, sm80, false, (ptx, arch) -> {
            throw new IllegalStateException("planted compiler crash");
        }, Map.of(), dir.resolve("crash"));
        fails(() -> crash.verify(1), "jptxas sm_80: java.lang.IllegalStateException");
        Gate wrong = VideoInstructionsOracleTest.gate(variants, sm80, false, (ptx, arch) -> {
            Path sub = ptx.resolveSibling("vsub.ptx");
            Files.writeString(sub, Files.readString(ptx).replace("vadd.u32", "vsub.u32"));
            return VideoInstructionsOracleTest.JPTXAS.compile(sub, arch);
        }, Map.of(), dir.resolve("wrong"));
        fails(() -> wrong.verify(1), "jptxas sm_80: 1 variants differ, first: vadd.u32.u32.u32 d, a, b;");
    }
}
