package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.testing.kernels.CorpusKernels;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interpreter's leg of the corpus kernels' three-way agreement: the PTX interpreter computes each corpus case's
 * CPU reference (the emulator's legs, on ptxas's cubin and on ours, are checked against the same reference by the
 * cli's cycle report). Skips, or fails under CI, without the shared corpus.
 */
class PtxInterpreterCorpusKernelsTest {
    @Test
    void interpreterComputesEveryCorpusCaseReference(@TempDir Path dir) throws Exception {
        List<KernelCase> cases = CorpusKernels.all();
        List<String> problems = new ArrayList<>();
        for (KernelCase k : cases) {
            PtxInterpreter interp = PtxInterpreter.load(k.ptx().getFileName().toString(),
                    Files.readString(k.ptx(), StandardCharsets.ISO_8859_1));
            Launch launch = Launch.prepare(Target.of("sm_" + Math.max(75, k.minSm())),
                    LaunchSpecReader.read(k.materialize(dir.resolve(k.name()))));
            LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
            if (!r.completed()) {
                problems.add(k.name() + ": " + r.fault().orElseThrow().describe());
                continue;
            }
            problems.addAll(k.compare(SuiteRun.outputs(k, launch), 3));
        }
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        // distinct names (they name report rows and work folders) and enough files to be a sample of the corpus
        assertTrue(cases.stream().map(KernelCase::name).distinct().count() == cases.size());
        assertTrue(new HashSet<>(cases.stream().map(KernelCase::ptx).toList()).size() >= 15, "corpus files");
    }
}
