package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.jptxas.simulator.suite.SuiteRun;

/** Acceptance of issue 6: for every suite kernel, the PTX interpreter computes the CPU reference's outputs. */
class PtxInterpreterSuiteTest {
    static List<KernelCase> cases() {
        return KernelSuite.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void interpreterMatchesTheReference(KernelCase k, @TempDir Path dir) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load(k.ptx().getFileName().toString(), Files.readString(k.ptx()));
        Launch launch = Launch.prepare(Target.of(k.minSm() > 75 ? "sm_" + k.minSm() : "sm_75"),
                LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(50_000_000));
        assertTrue(r.completed(), () -> k.name() + ": " + r.fault().orElseThrow().describe());
        Map<String, byte[]> actual = SuiteRun.outputs(k, launch);
        List<String> problems = k.compare(actual, 5);
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }
}
