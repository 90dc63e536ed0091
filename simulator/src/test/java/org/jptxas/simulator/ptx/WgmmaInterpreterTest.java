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
import org.jptxas.testing.kernels.KernelSuite;
import org.jptxas.testing.kernels.WarpgroupKernels;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The interpreter's {@code wgmma} ({@link WgmmaInstruction}) on the TMA -> wgmma -> TMA GEMMs of {@code kernels/}
 * ({@link WarpgroupKernels#tmaWgmmaGemm()}; {@link WarpgroupKernels#tmaWgmmaGemmSw128()}: 128-byte swizzled tensor
 * copies and descriptors; {@link WarpgroupKernels#tmaWgmmaGemmE4m3()}: the same on e4m3): each computes the
 * reference, and a copy without its {@code wgmma.wait_group} does not (the accumulators hold the poison NaN, never
 * the result).
 */
class WgmmaInterpreterTest {
    static List<KernelCase> cases() {
        return KernelSuite.archSpecific();
    }

    private static List<String> run(KernelCase k, String ptx, Path dir) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load(k.name() + ".ptx", ptx);
        Launch launch = Launch.prepare(Target.of("sm_90a"), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000_000));
        assertTrue(r.completed(), () -> k.name() + ": " + r.fault().orElseThrow().describe());
        return k.compare(SuiteRun.outputs(k, launch), 5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void computesTheReference(KernelCase k, @TempDir Path dir) throws Exception {
        assertEquals(List.of(), run(k, Files.readString(k.ptx()), dir));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void withoutTheWaitTheAccumulatorsNeverLand(KernelCase k, @TempDir Path dir) throws Exception {
        String text = Files.readString(k.ptx());
        String wait = "wgmma.wait_group.sync.aligned 0;";
        assertTrue(text.contains(wait));
        List<String> problems = run(k, text.replace(wait, ""), dir);
        assertFalse(problems.isEmpty());
    }
}
