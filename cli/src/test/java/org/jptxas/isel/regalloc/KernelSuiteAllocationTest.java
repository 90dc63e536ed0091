package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every kernel of the suite that the front end lowers is allocated with the verifier on (sm_80, sm_90); register
 * counts are printed against ptxas 13's when the oracle is installed.
 */
class KernelSuiteAllocationTest {
    static List<Path> kernels() throws Exception {
        Path root = RepoRoot.find().orElse(null);
        Assumptions.assumeTrue(root != null, "repository root not found");
        try (Stream<Path> s = Files.list(root.resolve("kernels"))) {
            return s.filter(Files::isDirectory).map(d -> d.resolve(d.getFileName() + ".ptx"))
                    .filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void suiteKernelsAllocateAndVerify() throws Exception {
        for (String sm : List.of("sm_80", "sm_90")) {
            List<PtxAllocation.Row> rows = new ArrayList<>();
            List<String> unsupported = new ArrayList<>();
            for (Path k : kernels()) {
                rows.addAll(PtxAllocation.run(k, Target.of(sm), unsupported, false));
            }
            System.out.println(sm + ": " + rows.size() + " functions allocated and verified, " + unsupported.size()
                    + " files not lowered yet");
            assertTrue(rows.size() > 0 || !unsupported.isEmpty());
        }
    }

    @Test
    void registerCountsAgainstPtxas() throws Exception {
        org.jptxas.testing.Oracles.assumePtxas13();
        List<PtxAllocation.Row> rows = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        for (Path k : kernels()) {
            rows.addAll(PtxAllocation.run(k, Target.of("sm_80"), unsupported, true, true));
        }
        System.out.print(PtxAllocation.table(rows));
        System.out.printf("sm_80 kernel suite after -O3 passes: %d functions, register geomean ours/ptxas = %.3f%n",
                rows.size(), PtxAllocation.geomeanRatio(rows));
        for (PtxAllocation.Row r : rows) {
            assertTrue(r.ours() >= 4 && r.ours() <= 255, r.toString());
        }
    }
}
