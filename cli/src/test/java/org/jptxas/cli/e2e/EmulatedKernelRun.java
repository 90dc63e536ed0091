package org.jptxas.cli.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.kernels.KernelCase;

/**
 * A kernel case's cubin run in the SASS emulator and checked against the case's reference, for end-to-end tests that
 * run jptxas's and ptxas's cubins of one hand-written PTX resource side by side.
 */
final class EmulatedKernelRun {
    private EmulatedKernelRun() {}

    /** The PTX resource {@code name} next to {@code owner}, written into {@code dir}. */
    static Path resource(Class<?> owner, Path dir, String name) throws Exception {
        Path ptx = dir.resolve(name);
        try (var in = owner.getResourceAsStream(name)) {
            Files.write(ptx, in.readAllBytes());
        }
        return ptx;
    }

    /**
     * Runs {@code cubin} on {@code k}'s launch for {@code arch} (inputs materialized in {@code dir}); a fault or an
     * output that differs from the reference is added to {@code problems}, prefixed with {@code who}.
     */
    static LaunchResult run(String arch, KernelCase k, byte[] cubin, Path dir, long maxWarpInstructions,
            List<String> problems, String who) throws Exception {
        Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult result = SassEmulator.fromCubin(TestTargets.of(arch), cubin).execute(launch,
                ExecutionLimits.DEFAULT.withMaxWarpInstructions(maxWarpInstructions));
        if (result.fault().isPresent()) {
            problems.add(who + ": " + result.fault().get().describe());
        } else {
            Map<String, byte[]> actual = SuiteRun.outputs(k, launch);
            k.compare(actual, 5).forEach(p -> problems.add(who + ": " + p));
        }
        return result;
    }
}
