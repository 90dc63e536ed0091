package org.jptxas.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdicts of {@code scripts/compile-time-report} (issue 19's compile-time acceptance) on planted times: the
 * real report compiles the whole corpus twice and is not a unit test, so its judging half is checked here.
 */
class CompileTimeReportTest {
    private static Processes.Result verdict(Path dir, String times, String baseline) throws Exception {
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        Path file = dir.resolve("times.tsv");
        Files.writeString(file, times);
        Map<String, String> env = Map.of();
        if (baseline != null) {
            Path b = dir.resolve("baseline.tsv");
            Files.writeString(b, baseline);
            env = Map.of("BASELINE", b.toString());
        }
        return Processes.run(List.of("bash", root.resolve("scripts/compile-time-report").toString(), "--verdict",
                file.toString()), root, env, 60);
    }

    private static String line(Processes.Result r, String file) {
        return r.stdout().lines().filter(l -> l.contains("\t" + file + "\t")).findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + file + " in:\n" + r.stdout()));
    }

    @Test
    void boundsAreOneAndAHalfTimesPtxasAboveATenthOfASecondAndPtxasItselfAboveOneSecond(@TempDir Path dir)
            throws Exception {
        Processes.Result r = verdict(dir, String.join("\n",
                "sm_80\tfast.ptx\t0.200\t0.300\t0",     // exactly 1.5x: meets
                "sm_80\tslow.ptx\t0.200\t0.301\t0",     // just over 1.5x
                "sm_86\tbig-ok.ptx\t1.800\t1.800\t0",   // over 1 s: at most ptxas's time
                "sm_86\tbig-slow.ptx\t1.800\t1.900\t0", // over 1 s: 1.06x is too slow
                "sm_75\ttiny.ptx\t0.050\t0.900\t0",     // ptxas at most 0.1 s: no bound
                "sm_90a\tbroken.ptx\t3.000\t0.020\t255") + "\n", null);
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(line(r, "fast.ptx").endsWith("\tok"), r.stdout());
        assertTrue(line(r, "slow.ptx").endsWith("\tSLOW"), r.stdout());
        assertTrue(line(r, "big-ok.ptx").endsWith("\tok"), r.stdout());
        assertTrue(line(r, "big-slow.ptx").endsWith("\tSLOW"), r.stdout());
        assertTrue(line(r, "tiny.ptx").endsWith("\tsmall"), r.stdout());
        assertTrue(line(r, "broken.ptx").endsWith("\tFAILED"), r.stdout());
        assertTrue(r.stdout().contains("summary: 6 files; 4 over 0.1 s of ptxas, 2 of them within the bound, 2 SLOW;"
                + " 1 small; 1 FAILED"), r.stdout());
    }

    @Test
    void allWithinTheBoundsPasses(@TempDir Path dir) throws Exception {
        Processes.Result r = verdict(dir, "sm_80\ta.ptx\t0.400\t0.500\t0\nsm_80\tb.ptx\t0.010\t0.700\t0\n", null);
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("2 files; 1 over 0.1 s of ptxas, 1 of them within the bound, 0 SLOW"),
                r.stdout());
    }

    @Test
    void aFileSlowerThanInTheBaselineFailsEvenUnderItsBound(@TempDir Path dir) throws Exception {
        String baseline = "sm\tfile\tptxas_s\tjptxas_s\tratio\tverdict\n"
                + "sm_80\ta.ptx\t0.400\t0.300\t0.75\tok\n"
                + "sm_80\tb.ptx\t0.400\t0.300\t0.75\tok\n";
        Processes.Result r = verdict(dir, "sm_80\ta.ptx\t0.400\t0.500\t0\nsm_80\tb.ptx\t0.400\t0.320\t0\n", baseline);
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(line(r, "a.ptx").endsWith("\tok,SLOWER"), r.stdout());
        assertTrue(line(r, "b.ptx").endsWith("\tok"), r.stdout()); // 7% slower: within noise
        assertTrue(r.stdout().contains("1 SLOWER than the baseline"), r.stdout());
    }
}
