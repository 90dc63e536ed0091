package org.jptxas.cubin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ResourceReport#format(String, Cubin)} of ptxas's cubin against {@code ptxas -v}'s own report, for the small
 * corpus files on sm_80 and sm_90 (without the "Compile time" lines; spill sizes are not in a cubin, so files
 * with spills are counted apart).
 */
@Tag("slow")
class ResourceReportCorpusTest {
    @TempDir
    Path tmp;

    /**
     * The one known difference: multiple_return.ptx on sm_90 is compiled without the ABI (a function with two results),
     * which ptxas 13's sm_90 cubin does not record (ptxas's report has no "Function properties" lines). jptxas's own
     * -v knows it from the PTX (CompileCommandTest#severalResultsDisableTheAbi); reading the cubin alone cannot.
     */
    static final Map<String, String> KNOWN = Map.of("multiple_return.ptx sm_90",
            "compiled without the ABI, which the sm_90 cubin does not record");

    /** What {@code ptxas -v} printed, and its cubin. */
    record Verbose(int exitCode, String output, byte[] cubin) {}

    @Test
    void reportMatchesPtxasVerbose() {
        Path ptxas = Oracles.assumePtxas13();
        List<CorpusCubin> jobs = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (e.ptxasAccepts() && size(e.file()) <= 16_000) {
                jobs.add(new CorpusCubin(e, "sm_80", false));
                jobs.add(new CorpusCubin(e, "sm_90", false));
            }
        }
        AtomicInteger n = new AtomicInteger();
        AtomicInteger spills = new AtomicInteger();
        Gate gate = compare(jobs, job -> verbose(ptxas, job, tmp.resolve("out" + n.incrementAndGet() + ".cubin")),
                bytes -> ResourceReport.format("ptxas", Cubin.read(bytes)), KNOWN, spills);
        System.out.println(gate.summary() + "; " + spills + " with spills not compared");
        gate.verify(287);
        Figures.check("cubin.vreport.equal", gate.compared() - KNOWN.size());
        Figures.check("cubin.vreport.spills", spills.get());
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Verbose verbose(Path ptxas, CorpusCubin job, Path out) {
        Processes.Result r = Processes.run(List.of(ptxas.toString(), "-v", "-arch=" + job.arch(),
                job.entry().file().toString(), "-o", out.toString()), out.getParent(), Map.of(), 120);
        try {
            byte[] cubin = r.exitCode() == 0 ? Files.readAllBytes(out) : null;
            Files.deleteIfExists(out);
            return new Verbose(r.exitCode(), r.stdout() + r.stderr(), cubin);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The gate: {@code report} of each job's cubin against ptxas's -v lines. A combination ptxas refuses is not
     * compared; any other ptxas failure is an oracle failure.
     */
    static Gate compare(List<CorpusCubin> jobs, Function<CorpusCubin, Verbose> ptxasV, Function<byte[], String> report,
                        Map<String, String> known, AtomicInteger spills) {
        Gate gate = Gate.withKnown("-v report vs ptxas -v", known);
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            Verbose v = ptxasV.apply(job);
            if (v.exitCode() != 0) {
                if (!job.targetAbove() && !CorpusCubin.refused(v.output())) {
                    gate.oracleFailed(job.describe(), "ptxas -v exit " + v.exitCode() + ": " + v.output());
                }
                return;
            }
            List<String> expected = v.output().lines()
                    .filter(l -> !l.contains("Compile time") && (l.startsWith("ptxas info") || l.startsWith("    ")))
                    .toList();
            if (expected.stream().anyMatch(l -> l.matches(".* [1-9]\\d* bytes spill.*"))) {
                spills.incrementAndGet();
                return;
            }
            List<String> actual = report.apply(v.cubin()).lines().toList();
            if (expected.equals(actual)) {
                gate.pass();
            } else {
                gate.differ(job.describe(), "\n  ptxas:  " + expected + "\n  jptxas: " + actual);
            }
        });
        return gate;
    }
}
