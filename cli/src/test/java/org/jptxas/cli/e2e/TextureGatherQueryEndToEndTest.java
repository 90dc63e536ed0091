package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code texture_gather_query} ({@link KernelSuite#standalone()}: {@code tld4.r}/{@code tld4.a} gathers, {@code txq}
 * and {@code suq} sizes, {@code sured.b.add}/{@code .max.s32}) and {@code texture_gather_channels} ({@code tld4.r/.g/
 * .b/.a} with all four results read) three ways: the PTX interpreter, jptxas's cubin and ptxas 13's in the SASS
 * emulator, each against the CPU reference; jptxas's cubin is read by nvdisasm as jptxas prints it and has no hazard
 * in its control bits, and it holds ptxas's instructions (TLD4 with the mask of the channels kept, or none when every
 * channel is read; TXQ TEX_HEADER_DIMENSION, SURED).
 */
class TextureGatherQueryEndToEndTest {
    static final BackendRegistry REGISTRY =
            BackendRegistry.discover(TextureGatherQueryEndToEndTest.class.getClassLoader());

    private static KernelCase kernel() {
        return kernel("texture_gather_query");
    }

    /** The standalone kernel (outside the suite's figures) of that name. */
    static KernelCase kernel(String name) {
        return KernelSuite.standalone().stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void bothCompilersCubinsComputeTheReference(String arch, @TempDir Path dir) throws Exception {
        KernelCase k = kernel();
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, k.ptx(), arch, false, false);
        String sass = ours.sass();
        assertTrue(sass.contains("TLD4.") && sass.contains(", 2D, 0x9 ") && sass.contains("TEX_HEADER_DIMENSION")
                && sass.contains("SURED.D.BA.2D.ADD.STRONG.SYS.TRAP") && sass.contains("SURED.D.BA.2D.MAX.S32"), sass);
        bothCubinsComputeTheReference(arch, k, ours, dir);
    }

    /** One unmasked gather per channel: TLD4.SCR.R/G/B/A (sm_75 ... sm_89) or TLD4.R/G/B/A (sm_90) ending in 2D. */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void gathersOfEveryChannelWithAllFourReadComputeTheReference(String arch, @TempDir Path dir) throws Exception {
        KernelCase k = kernel("texture_gather_channels");
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, k.ptx(), arch, false, false);
        String sass = ours.sass();
        for (String channel : List.of("R", "G", "B", "A")) {
            Pattern unmasked = Pattern.compile("TLD4(\\.SCR)?\\." + channel + " [^;\\n]*, 2D ?(;|\\n)");
            assertTrue(unmasked.matcher(sass).find(), channel + " unmasked gather missing:\n" + sass);
        }
        bothCubinsComputeTheReference(arch, k, ours, dir);
    }

    /** jptxas's cubin and ptxas 13's in the emulator against the reference; jptxas's read by nvdisasm as printed. */
    static void bothCubinsComputeTheReference(String arch, KernelCase k, ModuleCodegen.Result ours, Path dir)
            throws Exception {
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(arch, k, ours.cubin(), dir.resolve("jptxas"), 5_000_000, problems, "jptxas");
        EmulatedKernelRun.run(arch, k, WarpKernelHarness.ptxas13Cubin(k.ptx(), arch), dir.resolve("ptxas"), 5_000_000,
                problems, "ptxas");
        assertEquals(List.of(), problems);
        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"texture_gather_query", "texture_gather_channels"})
    void theInterpreterComputesTheReference(String name, @TempDir Path dir) throws Exception {
        interpreterComputesTheReference(kernel(name), dir);
    }

    /** The PTX interpreter's run of {@code k} (as for sm_75) against the reference. */
    static void interpreterComputesTheReference(KernelCase k, Path dir) throws Exception {
        Launch launch = Launch.prepare(Target.of("sm_75"), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = PtxInterpreter.load(k.ptx().getFileName().toString(), Files.readString(k.ptx()))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        Map<String, byte[]> actual = SuiteRun.outputs(k, launch);
        assertEquals(List.of(), k.compare(actual, 5));
    }
}
