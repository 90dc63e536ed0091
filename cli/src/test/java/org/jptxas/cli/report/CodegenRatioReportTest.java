package org.jptxas.cli.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Prints issue 7's report (run by {@code mvn verify -Pcorpus}, so CI prints it; also
 * {@code scripts/codegen-report}): jptxas vs ptxas -O3 instruction and register counts with geometric means, for
 * the kernel suite on sm_75 … sm_90 and for the shared corpus on sm_80. The tables go to
 * {@code cli/target/reports/}. The goal ratios are reported, not enforced; the test fails when the measurement
 * itself is broken (ptxas's cubins unreadable, no instruction counted).
 */
class CodegenRatioReportTest {
    @Test
    @Tag("slow")
    void kernelSuiteAgainstPtxas() {
        Oracles.assumePtxas13();
        CodegenRatioReport report = new CodegenRatioReport();
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
        String text = CodegenRatioReport.format("kernel suite: jptxas vs ptxas 13 -O3", new ArrayList<>(rows));
        System.out.print(text);
        CodegenRatioReport.write("codegen-ratios-suite.txt", text);
        assertTrue(rows.stream().allMatch(r -> r.ptxas() != null && r.ptxas().instructions() > 0),
                "ptxas's cubin of some suite kernel gave no instruction count:\n" + text);
        // Issue 8's gate: the static hazard checker finds nothing in any suite cubin jptxas produces.
        assertTrue(rows.stream().filter(CodegenRatioReport.Row::compared).allMatch(r -> r.ours().hazards() == 0),
                "hazards in jptxas's suite cubins (column hzd):\n" + text);
    }

    @Test
    @Tag("slow")
    void corpusAgainstPtxasOnSm80() {
        Oracles.assumePtxas13();
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts)
                .filter(e -> "sm_75".equals(e.arch()) || "sm_80".equals(e.arch())).toList();
        CodegenRatioReport report = new CodegenRatioReport();
        ConcurrentLinkedQueue<CodegenRatioReport.Row> rows = new ConcurrentLinkedQueue<>();
        entries.parallelStream().forEach(e -> rows.add(report.measure(
                String.valueOf(e.file().getFileName()), e.file(), "sm_80")));
        String text = CodegenRatioReport.format("shared corpus on sm_80: jptxas vs ptxas 13 -O3", new ArrayList<>(rows));
        System.out.print(text);
        CodegenRatioReport.write("codegen-ratios-corpus.txt", text);
        assertTrue(rows.stream().anyMatch(r -> r.ptxas() != null && r.ptxas().instructions() > 0), text);
    }
}
