package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.WarpgroupKernels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interpreter's {@code wgmma} ({@link WgmmaInstruction}) on the TMA -> wgmma -> TMA GEMM of the kernel suite's
 * folder ({@link WarpgroupKernels#tmaWgmmaGemm()}): it computes the reference, and a copy without its
 * {@code wgmma.wait_group} does not (the accumulators hold the poison NaN, never the result).
 */
class WgmmaInterpreterTest {
    private static List<String> run(KernelCase k, String ptx, Path dir) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load(k.name() + ".ptx", ptx);
        Launch launch = Launch.prepare(Target.of("sm_90a"), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000_000));
        assertTrue(r.completed(), () -> k.name() + ": " + r.fault().orElseThrow().describe());
        return k.compare(SuiteRun.outputs(k, launch), 5);
    }

    @Test
    void tmaWgmmaGemmComputesTheReference(@TempDir Path dir) throws Exception {
        KernelCase k = WarpgroupKernels.tmaWgmmaGemm();
        assertEquals(List.of(), run(k, Files.readString(k.ptx()), dir));
    }

    @Test
    void withoutTheWaitTheAccumulatorsNeverLand(@TempDir Path dir) throws Exception {
        KernelCase k = WarpgroupKernels.tmaWgmmaGemm();
        String text = Files.readString(k.ptx());
        String wait = "wgmma.wait_group.sync.aligned 0;";
        assertTrue(text.contains(wait));
        List<String> problems = run(k, text.replace(wait, ""), dir);
        assertFalse(problems.isEmpty());
    }
}
