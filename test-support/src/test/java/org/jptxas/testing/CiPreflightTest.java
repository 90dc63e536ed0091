package org.jptxas.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With every oracle and the corpus hidden, {@code .ci/run} fails before running Maven and names each missing piece:
 * CI cannot turn into a run of skipped oracle tests.
 */
class CiPreflightTest {
    @Test
    void ciFailsAndNamesWhatIsMissingWhenTheOraclesAreHidden(@TempDir Path empty) throws Exception {
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        Map<String, String> hidden = Map.of(
                "PATH", "/usr/bin:/bin", // ptxas 13 and nvlink 13 live in /usr/local/bin here
                "CUDA_ORACLE_HOME", "/dev/null/cuda-oracle", // not a folder: the install cannot write there
                "CUDA13_HOME", empty.resolve("cuda-13.0").toString(),
                "JPTXAS_CORPUS", empty.toString(),
                "JPTXAS_PTXAS", "");
        Processes.Result r = Processes.run(List.of("bash", root.resolve(".ci/run").toString()), root, hidden, 120);
        String out = r.stdout() + r.stderr();
        assertEquals(1, r.exitCode(), out);
        for (String missing : List.of("MISSING ptxas 13", "MISSING CUDA 12.5 nvdisasm", "MISSING CUDA 12.5 cuobjdump",
                "MISSING CUDA 12.5 nvlink", "MISSING CUDA 12.5 ptxas", "MISSING nvlink 13", "MISSING the shared corpus")) {
            assertTrue(out.contains(missing), "expected '" + missing + "' in:\n" + out);
        }
        assertTrue(!out.contains("BUILD"), "Maven must not run without the oracles:\n" + out);
    }

    @Test
    void thePreflightPassesWhereEverythingIsInstalled() {
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        Prerequisites.require(Oracles.ptxas13().isPresent() && Oracles.cuda125Bin().isPresent()
                && Oracles.nvlink13().isPresent() && Corpus.dir().isPresent(), "oracles or corpus not installed");
        Processes.Result r = Processes.run(List.of("bash", root.resolve("scripts/ci-preflight").toString()), root,
                Map.of(), 60);
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(Files.isExecutable(root.resolve(".ci/run")));
    }

    @Test
    void theCuda125FolderFirstOnPathDoesNotStandInForRelease13() {
        // the oracle folder holds a ptxas and an nvlink 12.5: put first on PATH (as for nvdisasm), neither may be
        // taken for release 13, by the preflight or by Oracles
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        Path bin125 = Oracles.cuda125Bin().orElse(null);
        Prerequisites.require(bin125 != null && Oracles.ptxas13().isPresent() && Oracles.nvlink13().isPresent()
                && Corpus.dir().isPresent(), "oracles or corpus not installed");
        assertFalse(Oracles.Release13.is13(bin125.resolve("ptxas")));
        assertFalse(Oracles.Release13.is13(bin125.resolve("nvlink")));
        assertTrue(Oracles.Release13.is13(Oracles.ptxas13().get()));
        Processes.Result r = Processes.run(List.of("bash", root.resolve("scripts/ci-preflight").toString()), root,
                Map.of("PATH", bin125 + java.io.File.pathSeparator + System.getenv("PATH"), "JPTXAS_PTXAS", ""), 60);
        String out = r.stdout() + r.stderr();
        assertEquals(0, r.exitCode(), out);
        assertFalse(out.contains("ptxas 13: " + bin125), out);
        assertFalse(out.contains("nvlink 13: " + bin125), out);
    }
}
