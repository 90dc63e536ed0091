package org.jptxas.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.CompileOptions;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.kernels.CorpusKernels;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated-cycle report ({@link CycleReport}) over the whole kernel suite on sm_75 … sm_90: every pair measured
 * on both cubins, the geometric means are the README's figures, the report goes to
 * {@code cli/target/reports/cycle-report.txt} (printed by {@code .ci/run}). The gate's own logic is checked on
 * planted faults.
 */
class CycleReportTest {
    private static CycleReport.Compile jptxas() {
        SuiteRun run = new SuiteRun();
        return (k, arch) -> Optional.of(run.compile(k.ptx(), arch, CompileOptions.defaults()).cubin());
    }

    private static CycleReport.Compile ptxas() {
        return (k, arch) -> {
            OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
            return c.cubin().isPresent() ? Optional.of(Files.readAllBytes(c.cubin().get())) : Optional.empty();
        };
    }

    @Test
    @Tag("slow")
    void suiteCyclesAgainstPtxas(@TempDir Path dir) throws Exception {
        List<KernelCase> kernels = KernelSuite.all();
        CycleReport.Result r = CycleReport.measure(kernels, SuiteRun.ARCHES, dir, jptxas(), ptxas());
        Set<String> tensor = names(KernelSuite.tensorCores());
        String text = CycleReport.text(r) + CycleReport.section(r, tensor, "Tensor-core kernels");
        System.out.print(text + r.gate().summary() + "\n");
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(reports.resolve("cycle-report.txt"), text);
        r.gate().verify(SuiteRun.pairs(kernels).size());
        CycleReport.Result t = CycleReport.only(r, tensor);
        Figures.check("codegen.cycles.tensor.pairs", t.pairs().size());
        Figures.check("codegen.cycles.tensor.geomean", t.geomean(CycleReport.Pair::cycles));
        Figures.check("codegen.cycles.tensor.instructions", t.geomean(CycleReport.Pair::instructions));
        Figures.check("codegen.cycles.tensor.registers", t.geomean(CycleReport.Pair::registers));
        Figures.check("codegen.cycles.suite.pairs", r.pairs().size());
        Figures.check("codegen.cycles.suite.geomean", r.geomean(CycleReport.Pair::cycles));
        Figures.check("codegen.cycles.suite.slowest", r.geomean(CycleReport.Pair::slowestWarp));
        Figures.check("codegen.cycles.suite.instructions", r.geomean(CycleReport.Pair::instructions));
        Figures.check("codegen.cycles.suite.worst",
                r.pairs().stream().mapToDouble(CycleReport.Pair::cycles).max().orElse(0));
    }

    /**
     * The same report over the shared corpus's kernels that have launch specs ({@link CorpusKernels}), on each SM
     * among sm_75 … sm_90 their {@code .target} allows: both cubins must compute the CPU reference (which the
     * interpreter computes too, simulator's PtxInterpreterCorpusKernelsTest), and the figures are the README's
     * corpus cycle figures. Written to {@code cli/target/reports/cycle-report-corpus.txt}.
     */
    @Test
    @Tag("slow")
    void corpusCyclesAgainstPtxas(@TempDir Path dir) throws Exception {
        List<KernelCase> kernels = CorpusKernels.all();
        CycleReport.Result r = CycleReport.measure(kernels, SuiteRun.ARCHES, dir, jptxas(), ptxas());
        String text = CycleReport.text(r, "corpus kernels with launch specs");
        System.out.print(text + r.gate().summary() + "\n");
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(reports.resolve("cycle-report-corpus.txt"), text);
        r.gate().verify(SuiteRun.pairs(kernels).size());
        Figures.check("codegen.cycles.corpus.pairs", r.pairs().size());
        Figures.check("codegen.cycles.corpus.geomean", r.geomean(CycleReport.Pair::cycles));
        Figures.check("codegen.cycles.corpus.worst",
                r.pairs().stream().mapToDouble(CycleReport.Pair::cycles).max().orElse(0));
        Figures.check("codegen.cycles.corpus.registers", r.geomean(CycleReport.Pair::registers));
    }

    // The gate's own logic, without ptxas: our saxpy stands in for ptxas's.

    private static final List<KernelCase> SAXPY = List.of(KernelSuite.byName("saxpy").orElseThrow());

    @Test
    void ourCodeAgainstItselfIsOneAndPasses(@TempDir Path dir) {
        CycleReport.Result r = CycleReport.measure(SAXPY, List.of("sm_80"), dir, jptxas(), jptxas());
        r.gate().verify(1);
        assertEquals(1.0, r.geomean(CycleReport.Pair::cycles), 1e-9);
        assertTrue(CycleReport.text(r).contains("saxpy"));
    }

    /** The section lists the named kernels' pairs and their means, and nothing else. */
    @Test
    void aSectionHoldsOnlyTheNamedKernels(@TempDir Path dir) {
        CycleReport.Result r = CycleReport.measure(SAXPY, List.of("sm_80"), dir, jptxas(), jptxas());
        String named = CycleReport.section(r, Set.of("saxpy"), "Named");
        assertTrue(named.contains("  saxpy ") && named.contains("  mean "), named);
        assertEquals(1, CycleReport.only(r, Set.of("saxpy")).pairs().size());
        String other = CycleReport.section(r, Set.of("mma_gemm_f16"), "Other");
        assertTrue(other.contains("none measured") && !other.contains("saxpy"), other);
    }

    static Set<String> names(List<KernelCase> kernels) {
        return kernels.stream().map(KernelCase::name).collect(Collectors.toSet());
    }

    @Test
    void plantedFaultsFailTheGate(@TempDir Path dir) throws Exception {
        // nothing measured
        assertFalse(CycleReport.measure(List.of(), List.of("sm_80"), dir, jptxas(), jptxas()).gate().passes(1));
        // our compiler throws: a crash
        CycleReport.Result crash = CycleReport.measure(SAXPY, List.of("sm_80"), dir, (k, a) -> {
            throw new IllegalStateException("planted");
        }, jptxas());
        assertEquals(1, crash.gate().crashes().size());
        // ptxas refuses: an oracle failure, not a pass
        CycleReport.Result refused = CycleReport.measure(SAXPY, List.of("sm_80"), dir, jptxas(),
                (k, a) -> Optional.empty());
        assertFalse(refused.gate().passes(1));
        assertTrue(refused.pairs().isEmpty());
        // our cubin computes something else (saxpy's multiply-add made an add): a difference
        Path bad = dir.resolve("saxpy-add.ptx");
        Files.writeString(bad, Files.readString(SAXPY.get(0).ptx(), StandardCharsets.ISO_8859_1)
                .replaceAll("fma\\.rn\\.f32\\s+(%f\\d+), (%f\\d+), (%f\\d+), (%f\\d+)", "add.f32 $1, $3, $4"));
        SuiteRun run = new SuiteRun();
        CycleReport.Compile wrong = (k, a) -> Optional.of(run.compile(bad, a, CompileOptions.defaults()).cubin());
        CycleReport.Result differs = CycleReport.measure(SAXPY, List.of("sm_80"), dir, wrong, jptxas());
        assertEquals(1, differs.gate().differences().size(), differs.gate().summary());
    }
}
