package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.jptxas.isel.spi.CompileOptions;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;

/**
 * Same input, same output: with pre- and post-allocation scheduling, reuse flags and control repair in the pipeline,
 * compiling a kernel twice gives byte-identical cubins (no iteration over hash orders anywhere).
 */
class ScheduledCodeDeterminismTest {
    @Test
    void compilingTwiceGivesTheSameBytes() throws Exception {
        SuiteRun run = new SuiteRun();
        for (String name : List.of("gemm_tile_f32", "bitonic_sort", "sqrt_rcp_f32", "splitmix64")) {
            KernelCase k = KernelSuite.byName(name).orElseThrow();
            for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                byte[] first;
                try {
                    first = run.compile(k.ptx(), arch, CompileOptions.defaults()).cubin();
                } catch (org.jptxas.ori.diag.CompilationException e) {
                    continue; // not compiled yet on this SM: nothing to compare
                }
                assertArrayEquals(first, run.compile(k.ptx(), arch, CompileOptions.defaults()).cubin(), name + " " + arch);
            }
        }
    }
}
