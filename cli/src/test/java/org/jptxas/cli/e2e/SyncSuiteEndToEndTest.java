package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite kernels that use atomics, barriers, fences, warp-level instructions and calls (the sync lowerers and the
 * inliner), compiled by jptxas for every SM and run in the SASS emulator against their CPU references. Fails on a
 * wrong result, a fault or an internal compile error; kernels that still need an instruction jptxas does not lower
 * are reported as unsupported.
 */
class SyncSuiteEndToEndTest {
    static final List<String> KERNELS = List.of("atomic_add_f64", "atomic_cas_fmax", "atomic_mix", "bitonic_sort",
            "call_func", "call_recursive", "dynamic_shared", "gemm_tile_f32", "histogram_shared", "reduce_atomic_i32",
            "reduce_sum_f32", "scan_block_i32", "scan_warp_shfl", "shfl_idx", "stencil_1d", "sync_count",
            "transpose_tile", "warp_match", "warp_reduce_shfl", "warp_redux", "warp_vote");

    @Test
    @Tag("slow")
    void syncKernelsOnEverySm(@TempDir Path dir) {
        List<KernelCase> cases = new ArrayList<>();
        for (String k : KERNELS) {
            cases.add(KernelSuite.byName(k).orElseThrow(() -> new AssertionError("no suite kernel " + k)));
        }
        List<SuiteRun.Outcome> outcomes = new SuiteRun().runAll(cases, dir);
        String report = SuiteRun.report(outcomes);
        System.out.print(report);
        List<SuiteRun.Outcome> bad = outcomes.stream().filter(o -> o.kind() == SuiteRun.Kind.WRONG
                || o.kind() == SuiteRun.Kind.FAULT || o.kind() == SuiteRun.Kind.COMPILE_ERROR).toList();
        assertTrue(bad.isEmpty(), bad.size() + " kernel-SM pairs failed:\n" + report);
    }
}
