package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;

/**
 * One small kernel's cubins for every target the kernel suite runs on ({@link SuiteRun#ARCHES}), made by jptxas or by
 * ptxas 13, each handed to a check with an emulator for it: the set-up the end-to-end emulation tests share.
 */
final class SuiteArchCubins {
    private SuiteArchCubins() {}

    /** Checks one target's cubin; adds what is wrong to {@code problems}. */
    interface Check {
        void check(String who, String arch, SassEmulator emulator, List<String> problems) throws Exception;
    }

    /** Runs {@code check} on jptxas's cubin of {@code ptx} for every suite target; returns the problems found. */
    static List<String> jptxas(Path ptx, Check check) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(SuiteArchCubins.class.getClassLoader());
        List<String> problems = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            byte[] cubin = OracleAcceptanceTest.compilePtx(registry, ptx, arch, false, false).cubin();
            check.check(arch + " jptxas", arch, SassEmulator.fromCubin(TestTargets.of(arch), cubin), problems);
        }
        return problems;
    }

    /** As {@link #jptxas} on ptxas 13's cubins (skips without ptxas 13; ptxas must accept the kernel). */
    static List<String> ptxas(Path ptx, Check check) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        List<String> problems = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            OracleCubins.Compiled c = OracleCubins.compile(ptxas, ptx, arch);
            assertTrue(c.ok(), arch + ": ptxas: " + c.diagnostics());
            byte[] cubin = Files.readAllBytes(c.cubin().orElseThrow());
            check.check(arch + " ptxas", arch, SassEmulator.fromCubin(TestTargets.of(arch), cubin), problems);
        }
        return problems;
    }

    /** A launch of the kernel for {@code arch} from the JSON launch spec {@code spec}. */
    static Launch launch(String arch, String spec) throws Exception {
        return Launch.prepare(Target.of(arch), LaunchSpecReader.parse("launch.json", spec, Path.of(".")));
    }
}
