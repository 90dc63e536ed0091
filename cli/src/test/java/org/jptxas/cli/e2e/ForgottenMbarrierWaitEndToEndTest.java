package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tensor copy whose mbarrier wait is forgotten, on jptxas's own cubin: the suite kernel {@code tma_tile_2d} without
 * its try_wait loop must not compute the reference in the SASS emulator (the box lands at the phase check that never
 * comes), while the kernel as written does. simulator's {@code TensorMapCopyTest} holds the interpreter and ptxas
 * 13's cubin to the same; backend-sm80's {@code TensorAndAsyncCopyTest} does it for a forgotten
 * {@code cp.async.wait_group} on all three.
 */
class ForgottenMbarrierWaitEndToEndTest {
    private static final String ARCH = "sm_90";
    private static final KernelCase KERNEL = KernelSuite.byName("tma_tile_2d").orElseThrow();

    private static List<String> problemsOfOurCubin(String ptxText, Path dir) throws Exception {
        Path ptx = Files.createDirectories(dir).resolve("tma_tile_2d.ptx");
        Files.writeString(ptx, ptxText);
        BackendRegistry registry = BackendRegistry.discover(ForgottenMbarrierWaitEndToEndTest.class.getClassLoader());
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, ptx, ARCH, false, false);
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, KERNEL, ours.cubin(), dir.resolve("run"), 2_000_000, problems, "jptxas");
        return problems;
    }

    @Test
    void withoutTheWaitOurCubinComputesTheWrongResult(@TempDir Path dir) throws Exception {
        String ptx = Files.readString(KERNEL.ptx());
        String noWait = ptx.replaceAll("(?m)^\\s*wait:\\s*\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!done bra wait;\\s*\\n", "");
        assertFalse(noWait.equals(ptx), "the wait loop was not found in the kernel's PTX");
        assertEquals(List.of(), problemsOfOurCubin(ptx, dir.resolve("with")));
        assertFalse(problemsOfOurCubin(noWait, dir.resolve("without")).isEmpty(),
                "jptxas's cubin without the mbarrier wait computed the reference");
    }
}
