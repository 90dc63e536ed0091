package org.jptxas.simulator.suite;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend's own end-to-end test, run in the backend's module with only that backend on the class path: the kernel
 * suite compiled for the backend's targets and run in the SASS emulator against the CPU references. Every pair must
 * compute its reference or be listed in {@link #known()} with the reason (an exact list: a listed pair that turns
 * correct fails too); crashes of the compiler or the emulator fail by name. A few kernels run in every build; the
 * whole suite runs with the slow tests, and its count of correct pairs is the README's figure
 * {@code figurePrefix() + "correct"}.
 */
public abstract class BackendSuiteTest {
    /**
     * Kernels every build runs: plain arithmetic, atomics, a true call, warp shuffles, f64, and on the SMs with
     * clusters a block's own shared memory through generic and cluster addresses, another block's mbarrier, and
     * tensor-memory-access copies (TMA) on sm_90.
     */
    static final List<String> QUICK = List.of("saxpy", "atomic_mix", "call_recursive", "scan_warp_shfl", "f64_horner",
            "cluster_generic_shared", "cluster_remote_mbarrier", "tma_tile_2d");

    /** The suite's SMs this backend serves (a subset of {@link SuiteRun#ARCHES}). */
    protected abstract List<String> targets();

    /** The prefix of this backend's figures ({@code "backend.sm80.suite."}), a literal in the subclass. */
    protected abstract String figurePrefix();

    /** Kernel/SM pairs ("kernel sm_XX") that are not correct, with why. */
    protected Map<String, String> known() {
        return Map.of();
    }

    /** The verdict on a run of {@code pairs} kernel/SM pairs (every one must have been run). */
    public static Gate gate(List<SuiteRun.Outcome> outcomes, int pairs, Map<String, String> known) {
        Gate gate = SuiteRun.judge("suite end to end", outcomes, known);
        gate.verify(pairs);
        return gate;
    }

    @Test
    void quickKernelsComputeTheirReferences(@TempDir Path dir) {
        List<KernelCase> kernels = QUICK.stream().map(n -> KernelSuite.byName(n).orElseThrow()).toList();
        List<SuiteRun.Pair> pairs = SuiteRun.pairs(kernels, targets());
        assertTrue(pairs.size() >= targets().size(), "every target runs at least saxpy");
        Gate gate = gate(new SuiteRun().runPairs(pairs, dir), pairs.size(), Map.of());
        System.out.println(gate.summary());
    }

    @Test
    @Tag("slow")
    void wholeSuite(@TempDir Path dir) {
        List<SuiteRun.Pair> pairs = SuiteRun.pairs(KernelSuite.all(), targets());
        List<SuiteRun.Outcome> outcomes = new SuiteRun().runPairs(pairs, dir);
        System.out.print(SuiteRun.report(outcomes));
        Gate gate = gate(outcomes, pairs.size(), known());
        System.out.println(gate.summary());
        Figures.check(figurePrefix() + "correct", outcomes.stream().filter(o -> o.kind() == SuiteRun.Kind.CORRECT).count());
    }
}
