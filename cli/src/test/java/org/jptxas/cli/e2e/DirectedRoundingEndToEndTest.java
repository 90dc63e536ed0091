package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.kernels.DirectedRoundingKernel;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * div/rcp/sqrt with .rz/.rm/.rp (f32, f64) and bmsk/szext end to end: the nvcc-generated kernel
 * ({@code directed_rounding.cu}, a test resource) compiled by jptxas for every SM runs in the SASS emulator and must
 * give {@link DirectedRoundingKernel}'s reference results bit for bit (overflow, subnormal and special operands
 * included).
 */
class DirectedRoundingEndToEndTest {
    @Test
    void ourCubinsComputeTheReferenceOnEverySm(@TempDir Path dir) throws Exception {
        KernelCase k = DirectedRoundingKernel.directedRounding();
        Path ptx = dir.resolve("directed_rounding.ptx");
        try (var in = getClass().getResourceAsStream("directed_rounding.ptx")) {
            Files.write(ptx, in.readAllBytes());
        }
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        List<String> problems = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            ModuleCodegen.Result r = OracleAcceptanceTest.compilePtx(registry, ptx, arch, false, false);
            Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(dir.resolve(arch))));
            LaunchResult result = SassEmulator.fromCubin(TestTargets.of(arch), r.cubin()).execute(launch,
                    ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
            if (result.fault().isPresent()) {
                problems.add(arch + ": " + result.fault().get().describe());
                continue;
            }
            Map<String, byte[]> actual = SuiteRun.outputs(k, launch);
            k.compare(actual, 5).forEach(p -> problems.add(arch + ": " + p));
        }
        problems.forEach(System.out::println);
        assertTrue(problems.isEmpty(), problems.size() + " problems, first: " + (problems.isEmpty() ? "" : problems.get(0)));
    }
}
