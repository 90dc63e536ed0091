package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.jptxas.isel.codegen.SaxpyOri;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.spi.CompiledModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * The code generator alone, independent of the front end: saxpy's Ori written by hand goes through each backend's
 * {@code compile()} and the cubin computes the suite's reference in the SASS emulator.
 */
class HandLoweredEndToEndTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void handLoweredSaxpyComputesTheReference(String arch, @TempDir Path dir) throws Exception {
        Target target = Target.of(arch);
        CompiledModule m = BackendRegistry.discover(getClass().getClassLoader()).forTarget(target)
                .compile(new CompileRequest(SaxpyOri.module(arch), target, CompileOptions.defaults()));
        KernelCase saxpy = KernelSuite.byName("saxpy").orElseThrow();
        SuiteRun.Outcome o = new SuiteRun().execute(saxpy, arch, m, dir);
        assertEquals(SuiteRun.Kind.CORRECT, o.kind(), o.detail() + "\n" + o.sass());
        // The scheduler's hazard checker finds nothing wrong with our control bits.
        org.jptxas.simulator.sass.SassEmulator.HazardReport h =
                org.jptxas.simulator.sass.SassEmulator.fromCubin(TestTargets.of(arch), m.cubin()).hazards();
        assertEquals(java.util.List.of(), h.hazards(), m.sass());
        assertEquals(java.util.Optional.empty(), h.unavailable());
    }
}
