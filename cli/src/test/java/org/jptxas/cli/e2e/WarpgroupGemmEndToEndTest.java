package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.WarpgroupKernels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hopper's warpgroup GEMM ({@link WarpgroupKernels#wgmmaGemmF16()}, sm_90a) end to end: jptxas's cubin and ptxas 13's
 * run in the SASS emulator and must both give the reference bit for bit; a copy of the kernel whose wait_group is
 * dropped must stop with the emulator's missing-wait fault on jptxas's cubin.
 */
class WarpgroupGemmEndToEndTest {
    private static final String ARCH = "sm_90a";

    @Test
    void jptxasAndPtxasCubinsComputeTheReference(@TempDir Path dir) throws Exception {
        bothComputeTheReference(dir, "wgmma_gemm_f16.ptx");
    }

    /**
     * The same GEMM with its descriptors computed Triton's way from a warp-uniform shared address: jptxas computes
     * them on the uniform datapath (no R2UR left), and both cubins still give the reference.
     */
    @Test
    void uniformDescriptorsComputeTheReference(@TempDir Path dir) throws Exception {
        String sass = bothComputeTheReference(dir, "wgmma_gemm_f16_uniform.ptx");
        assertTrue(sass.contains("USGXT.U32") && !sass.contains("R2UR"), sass);
    }

    /** Runs jptxas's and ptxas 13's cubins of {@code resource} in the emulator against the reference; our SASS. */
    private String bothComputeTheReference(Path dir, String resource) throws Exception {
        KernelCase k = WarpgroupKernels.wgmmaGemmF16();
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, resource);
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        List<String> problems = new ArrayList<>();
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, ptx, ARCH, false, false);
        EmulatedKernelRun.run(ARCH, k, ours.cubin(), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, ARCH);
        assertTrue(theirs.ok(), theirs.diagnostics());
        EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                2_000_000, problems, "ptxas");
        assertEquals(List.of(), problems);
        return ours.sass();
    }

    @Test
    void aKernelWithoutItsWaitStopsWithTheMissingWaitFault(@TempDir Path dir) throws Exception {
        KernelCase k = WarpgroupKernels.wgmmaGemmF16();
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, "wgmma_gemm_f16.ptx");
        String text = Files.readString(ptx);
        assertTrue(text.contains("\twgmma.wait_group.sync.aligned 0;\n"));
        Path broken = dir.resolve("no_wait.ptx");
        Files.writeString(broken, text.replace("\twgmma.wait_group.sync.aligned 0;\n", ""));
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, broken, ARCH, false, false);
        List<String> problems = new ArrayList<>();
        LaunchResult r = EmulatedKernelRun.run(ARCH, k, ours.cubin(), dir.resolve("jptxas"), 2_000_000, problems,
                "jptxas");
        assertTrue(r.fault().isPresent() && r.fault().get().describe().contains("no WARPGROUP.DEPBAR"),
                () -> String.valueOf(problems));
    }
}
