package org.jptxas.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jptxas.cli.e2e.CorpusCodegenAcceptanceTest;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * Issue 7's report (run by {@code mvn verify -Pcorpus}, so CI prints it; also {@code scripts/codegen-report}):
 * jptxas vs ptxas -O3 instruction and register counts with geometric means, for the kernel suite on sm_75 … sm_90
 * and for the shared corpus on sm_80. The tables go to {@code cli/target/reports/}.
 *
 * <p>The gate ({@link #gate}): every pair is measured on both sides (ptxas failing is an oracle failure; our compiler
 * failing is a difference by name, unless the corpus file stops at an out-of-scope family of
 * {@link CorpusCodegenAcceptanceTest}; our compiler throwing is a crash by name); the static hazard checker finds
 * nothing in our cubins. The ratios and stall sums are figures. Because the final control bits have been repaired
 * by the same checker, each pair is also compiled without the repair: the checker's findings there (the control-word
 * generator's own misses) are a figure, so the static check is not vacuous.
 */
class CodegenRatioReportTest {

    /**
     * The gate's core over measured rows: {@code outOfScopeAllowed} lets ours fail at an out-of-scope family (the
     * corpus); the suite allows no failure.
     */
    static Gate gate(String name, List<CodegenRatioReport.Row> rows, boolean outOfScopeAllowed) {
        return gate(name, rows, outOfScopeAllowed ? CorpusCodegenAcceptanceTest.OUT_OF_SCOPE : Map.of());
    }

    /** The gate's core with the out-of-scope families {@code outOfScope} (the real list, or a planted one). */
    static Gate gate(String name, List<CodegenRatioReport.Row> rows, Map<String, String> outOfScope) {
        Gate gate = Gate.named(name);
        for (CodegenRatioReport.Row r : rows) {
            String key = r.input() + "@" + r.arch();
            switch (r.kind()) {
                case PTXAS_FAILED -> gate.oracleFailed(key, r.why());
                case OURS_CRASHED -> gate.crash(key, r.crash());
                case OURS_FAILED -> {
                    if (CorpusCodegenAcceptanceTest.outOfScopeFamily(outOfScope, r.why()).isPresent()) {
                        gate.pass();
                    } else {
                        gate.differ(key, "jptxas: " + r.why());
                    }
                }
                case NO_CODE -> gate.pass(); // module-scope data only: nothing to compare, on both sides
                case COMPARED -> {
                    if (r.ours().hazards() != 0) {
                        gate.differ(key, r.ours().hazards() < 0 ? "the hazard check of our cubin failed"
                                : r.ours().hazards() + " hazards in our cubin (column hzd)");
                    } else {
                        gate.pass();
                    }
                }
            }
        }
        return gate;
    }

    @Test
    @Tag("slow")
    void kernelSuiteAgainstPtxas() {
        Oracles.assumePtxas13();
        CodegenRatioReport report = new CodegenRatioReport(true);
        ConcurrentLinkedQueue<CodegenRatioReport.Row> rows = new ConcurrentLinkedQueue<>();
        List<Runnable> jobs = new ArrayList<>();
        for (KernelCase k : KernelSuite.all()) {
            for (String arch : CodegenRatioReport.ARCHES) {
                if (k.supports(Integer.parseInt(arch.substring(3)))) {
                    jobs.add(() -> rows.add(report.measure(k.name(), k.ptx(), arch)));
                }
            }
        }
        jobs.parallelStream().forEach(Runnable::run);
        List<CodegenRatioReport.Row> all = new ArrayList<>(rows);
        String text = CodegenRatioReport.format("kernel suite: jptxas vs ptxas 13 -O3", all);
        CodegenRatioReport.Summary s = CodegenRatioReport.summarize(all);
        Set<String> tensor = CycleReportTest.names(KernelSuite.tensorCores());
        CodegenRatioReport.Summary t = CodegenRatioReport.summarize(
                all.stream().filter(r -> tensor.contains(r.input())).toList());
        text += "-- " + s + "\n-- tensor-core kernels: " + t + "\n" + generatorMisses(all);
        System.out.print(text);
        CodegenRatioReport.write("codegen-ratios-suite.txt", text);
        Gate gate = gate("suite against ptxas", all, false);
        System.out.println(gate.summary());
        gate.verify(Math.max(1, jobs.size()));
        assertEquals(jobs.size(), s.pairs(), "every pair compared");
        Figures.check("codegen.ratio.suite.instructions", s.instructions());
        Figures.check("codegen.ratio.suite.registers", s.registers());
        Figures.check("codegen.stalls.suite.total", s.stallTotal());
        Figures.check("codegen.stalls.suite.geomean", s.stallGeomean());
        Figures.check("codegen.generator.hazards.suite", s.generatorHazards());
        Figures.check("codegen.ratio.tensor.pairs", t.pairs());
        Figures.check("codegen.ratio.tensor.instructions", t.instructions());
        Figures.check("codegen.ratio.tensor.registers", t.registers());
    }

    @Test
    @Tag("slow")
    void corpusAgainstPtxasOnSm80() {
        Oracles.assumePtxas13();
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts)
                .filter(e -> "sm_75".equals(e.arch()) || "sm_80".equals(e.arch())).toList();
        CodegenRatioReport report = new CodegenRatioReport(true);
        ConcurrentLinkedQueue<CodegenRatioReport.Row> rows = new ConcurrentLinkedQueue<>();
        entries.parallelStream().forEach(e -> rows.add(report.measure(
                String.valueOf(e.file().getFileName()), e.file(), "sm_80")));
        List<CodegenRatioReport.Row> all = new ArrayList<>(rows);
        String text = CodegenRatioReport.format("shared corpus on sm_80: jptxas vs ptxas 13 -O3", all);
        CodegenRatioReport.Summary s = CodegenRatioReport.summarize(all);
        text += "-- " + s + "\n" + generatorMisses(all);
        System.out.print(text);
        CodegenRatioReport.write("codegen-ratios-corpus.txt", text);
        Gate gate = gate("corpus on sm_80 against ptxas", all, true);
        System.out.println(gate.summary());
        gate.verify(Math.max(1, entries.size()));
        Figures.check("codegen.ratio.corpus.sm_80.pairs", s.pairs());
        Figures.check("codegen.ratio.corpus.sm_80.instructions", s.instructions());
        Figures.check("codegen.ratio.corpus.sm_80.registers", s.registers());
        Figures.check("codegen.stalls.corpus.sm_80.total", s.stallTotal());
        Figures.check("codegen.stalls.corpus.sm_80.geomean", s.stallGeomean());
        Figures.check("codegen.generator.hazards.corpus.sm_80", s.generatorHazards());
    }

    /** The pairs whose control words the repair had to fix (hazards without it), most first. */
    static String generatorMisses(List<CodegenRatioReport.Row> rows) {
        StringBuilder sb = new StringBuilder("-- hazards without the control repair (the generator's own misses):");
        rows.stream().filter(r -> r.generatorHazards() > 0)
                .sorted((a, b) -> b.generatorHazards() - a.generatorHazards())
                .forEach(r -> sb.append(' ').append(r.input()).append('@').append(r.arch()).append('=')
                        .append(r.generatorHazards()));
        return sb.append('\n').toString();
    }

    // The gate's own logic on planted rows.

    private static CubinStats stats(int instructions, int hazards) {
        return new CubinStats(List.of(new CubinStats.Function("k", true, instructions, 16, instructions)), hazards,
                instructions);
    }

    private static CodegenRatioReport.Row compared(String input, int hazards) {
        return new CodegenRatioReport.Row(input, "sm_80", stats(10, hazards), stats(10, 0), null, null, 0);
    }

    @Test
    void theGatePassesComparedPairsAndFailsOnNothingCompared() {
        gate("planted", List.of(compared("a", 0), compared("b", 0)), false).verify(2);
        assertFalse(gate("planted", List.of(), false).passes(1));
    }

    @Test
    void aHazardInOurCubinFailsTheGate() {
        Gate g = gate("planted", List.of(compared("a", 0), compared("b", 1)), false);
        assertEquals(1, g.differences().size());
        assertFalse(g.passes(1));
    }

    @Test
    void ourFailuresFailTheSuiteAndOnlyOutOfScopeOnesPassTheCorpus() {
        CodegenRatioReport.Row outOfScope = new CodegenRatioReport.Row("c", "sm_80", null, stats(10, 0),
                "Instruction 'wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3' not yet supported");
        CodegenRatioReport.Row other = new CodegenRatioReport.Row("d", "sm_80", null, stats(10, 0),
                "Instruction 'ldmatrix.sync.aligned.m8n8.x4.shared.b16' not yet supported");
        Map<String, String> planted = Map.of("wgmma", "planted family");
        assertFalse(gate("suite", List.of(outOfScope), Map.of()).passes(1));
        gate("corpus", List.of(outOfScope), planted).verify(1);
        assertFalse(gate("corpus", List.of(other), planted).passes(1));
    }

    @Test
    void ptxasFailingIsAnOracleFailure() {
        Gate g = gate("planted", List.of(new CodegenRatioReport.Row("e", "sm_80", null, null, "ptxas rejects it")), false);
        assertEquals(1, g.oracleFailures().size());
    }

    /** A compiler that throws is measured as a crash and fails the gate by name (needs ptxas for the other side). */
    @Test
    void aThrowingCompileIsACrashByName() {
        Oracles.assumePtxas13();
        KernelCase saxpy = KernelSuite.byName("saxpy").orElseThrow();
        CodegenRatioReport report = new CodegenRatioReport((Path ptx, String arch, boolean repair) -> {
            throw new IllegalStateException("planted compiler crash");
        }, false);
        CodegenRatioReport.Row r = report.measure("saxpy", saxpy.ptx(), "sm_80");
        assertEquals(CodegenRatioReport.Kind.OURS_CRASHED, r.kind());
        Gate g = gate("planted", List.of(r), false);
        assertEquals(1, g.crashes().size());
        assertTrue(g.crashes().get(0).startsWith("saxpy@sm_80: java.lang.IllegalStateException: planted"), g.crashes().get(0));
    }

    /**
     * Why the figure is measured without the repair: in rodinia's hotspot on sm_80 the generator leaves a hazard that
     * the repair fixes, so the static check of the final cubin cannot see it, and the check without the repair can.
     */
    @Test
    void theRepairHidesAGeneratorMissOnlyTheUnrepairedCheckSees() throws Exception {
        Path hotspot = Corpus.assumeDir().resolve("ptx/gpuocelot/rodinia__hotspot.ptx");
        CodegenRatioReport report = new CodegenRatioReport();
        List<String> unrepaired = org.jptxas.scheduler.sass.ControlAgreement.checkHazards(
                report.compile(hotspot, "sm_80", false).cubin(), TestTargets.of("sm_80"));
        System.out.println("hotspot sm_80 without the repair: " + unrepaired);
        assertEquals(1, unrepaired.size(), unrepaired.toString());
        assertEquals(List.of(), org.jptxas.scheduler.sass.ControlAgreement.checkHazards(
                report.compile(hotspot, "sm_80", true).cubin(), TestTargets.of("sm_80")));
    }

    /** Without the repair, the suite's control words come straight from the generator; the report can measure that. */
    @Test
    void withoutRepairCompilesAndIsChecked() {
        Oracles.assumePtxas13();
        CodegenRatioReport.Row r = new CodegenRatioReport(true).measure("saxpy",
                KernelSuite.byName("saxpy").orElseThrow().ptx(), "sm_90");
        assertNotNull(r.ours(), r.why());
        assertEquals(0, r.generatorHazards());
    }
}
