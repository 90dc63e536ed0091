package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.jptxas.testing.kernels.WarpgroupKernels;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TMA load -> wgmma -> TMA store GEMMs ({@link WarpgroupKernels#tmaWgmmaGemm()} without swizzle,
 * {@link WarpgroupKernels#tmaWgmmaGemmSw128()} with 128-byte swizzle, {@link WarpgroupKernels#tmaWgmmaGemmE4m3()}
 * the same on e4m3; {@code kernels/}, sm_90a) end to end: jptxas's cubin and ptxas 13's compute the reference in
 * the SASS emulator, ours without a hazard (on the executed path and by the static check); nvdisasm reads our cubin
 * as jptxas prints it; a copy that skips the mbarrier wait before the multiplies does not compute the reference.
 */
class TmaWgmmaGemmEndToEndTest {
    private static final String ARCH = "sm_90a";
    private static final long MAX_WARP_INSTRUCTIONS = 4_000_000;

    static List<KernelCase> cases() {
        return KernelSuite.archSpecific();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void jptxasAndPtxasCubinsComputeTheReference(KernelCase k, @TempDir Path dir) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        List<String> problems = new ArrayList<>();
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, k.ptx(), ARCH, false, false);
        Launch launch = Launch.prepare(Target.of(ARCH), LaunchSpecReader.read(k.materialize(dir.resolve("jptxas"))));
        SassEmulator.TimedResult timed = SassEmulator.fromCubin(TestTargets.of(ARCH), ours.cubin()).executeTimed(
                launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(MAX_WARP_INSTRUCTIONS));
        if (timed.result().fault().isPresent()) {
            problems.add("jptxas: " + timed.result().fault().get().describe());
        } else {
            k.compare(SuiteRun.outputs(k, launch), 5).forEach(p -> problems.add("jptxas: " + p));
        }
        timed.timing().unavailable().ifPresent(u -> problems.add("jptxas: executed-path check not made: " + u));
        if (timed.timing().partial()) {
            problems.add("jptxas: executed-path check incomplete");
        }
        timed.timing().hazards().forEach(h -> problems.add("jptxas hazard: " + h));
        ControlAgreement.checkHazards(ours.cubin(), TestTargets.of(ARCH))
                .forEach(h -> problems.add("jptxas static hazard: " + h));
        OracleCubins.Compiled theirs = OracleCubins.ptxas13(k.ptx(), ARCH);
        assertTrue(theirs.ok(), theirs.diagnostics());
        EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                MAX_WARP_INSTRUCTIONS, problems, "ptxas");
        assertEquals(List.of(), problems);
        assertTrue(ours.sass().contains("UTMALDG.2D") && ours.sass().contains("UTMASTG.2D")
                && ours.sass().contains("GMMA.64x128x") && ours.sass().contains("SYNCS.PHASECHK"), ours.sass());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void nvdisasmReadsOurCubinAsJptxasPrintsIt(KernelCase k, @TempDir Path dir) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Gate gate = OracleAcceptanceTest.readBack(List.of(new SuiteRun.Pair(k, ARCH)),
                OracleAcceptanceTest.JPTXAS, nvdisasm, cuobjdump, dir);
        gate.verify(1);
    }

    /** Without the phase wait the multiplies read shared memory before the copies land: a wrong result or a fault. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void skippingTheBarrierWaitDoesNotComputeTheReference(KernelCase k, @TempDir Path dir) throws Exception {
        String text = Files.readString(k.ptx());
        String loop = "@!done bra wait;\n";
        assertTrue(text.contains(loop));
        Path broken = dir.resolve("no_wait.ptx");
        Files.writeString(broken, text.replace("mbarrier.try_wait.parity.shared::cta.b64 done,", "mov.pred done, 1;"
                + " //").replace(loop, ""));
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, broken, ARCH, false, false);
        assertTrue(!ours.sass().contains("SYNCS.PHASECHK"), ours.sass());
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, k, ours.cubin(), dir.resolve("jptxas"), MAX_WARP_INSTRUCTIONS, problems,
                "jptxas");
        assertTrue(!problems.isEmpty(), "the kernel without its wait computed the reference");
    }
}
