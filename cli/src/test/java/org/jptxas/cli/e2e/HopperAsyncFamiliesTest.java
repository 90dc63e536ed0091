package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23's Hopper asynchronous copies and barriers, one small kernel per family (resources {@code hopper/}):
 * mbarrier on uniform and per-thread addresses (init through the uniform-register loop; pending_count), bulk copies
 * and TMA tile copies (a multicast one too), tensormap.replace of every field with cp_fenceproxy and the tensormap
 * acquire fence, stmatrix, and the mbarrier_init/tensormap fences, and remote mbarrier arrivals with
 * st.async/red.async into another block of the cluster, and the forms of {@link AsyncGapFormsEndToEndTest} and
 * {@link BulkReductionsEndToEndTest} (bulk and tensor reductions, the tensor prefetch). Each compiles for sm_90a; nvdisasm 12.5 reads the cubin exactly as our
 * {@code --out-sass} prints it, and the static hazard checker finds nothing. The Triton corpus kernels that use these
 * families (matmul with device-side tensor descriptors, v3.3/3.5/3.7) compile whole, their fp8 wgmma included
 * ({@code CorpusCodegenAcceptanceTest.tritonFp8WarpgroupMatmulsCompileForSm90a}).
 */
class HopperAsyncFamiliesTest {
    private static final BackendRegistry REGISTRY = BackendRegistry.discover(HopperAsyncFamiliesTest.class.getClassLoader());

    @ParameterizedTest
    @ValueSource(strings = {"mbarrier_uniform", "mbarrier_per_thread", "mbarrier_init_per_thread", "bulk_copies",
        "tensormap_replace", "stmatrix", "fences", "cluster_async", "async_gap_forms", "cp_async_mbarrier",
        "arrive_drop_expect_tx", "bulk_reductions", "tensor_reductions",
        "cluster_bulk_reductions"})
    void compilesForSm90aAsNvdisasmReadsItWithoutHazards(String name, @TempDir Path dir) throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path ptx = dir.resolve(name + ".ptx");
        try (var in = getClass().getResourceAsStream("hopper/" + name + ".ptx")) {
            Files.write(ptx, in.readAllBytes());
        }
        ModuleCodegen.Result r = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, "sm_90a", false, false);
        Path cubin = dir.resolve(name + ".cubin");
        Files.write(cubin, r.cubin());
        Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
        assertEquals(0, dis.exitCode(), dis.stderr());
        List<String> theirs = OracleAcceptanceTest.codeLines(dis.stdout());
        List<String> ours = OracleAcceptanceTest.codeLines(r.sass());
        assertEquals(theirs, ours, () -> OracleAcceptanceTest.firstDifference(theirs, ours));
        assertEquals(List.of(), ControlAgreement.checkHazards(r.cubin(), TestTargets.of("sm_90a")));
    }
}
