package org.jptxas.cli.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * The suite kernels that synchronize (atomics, reductions, barriers, fences, warp shuffles, votes, matches, calls),
 * compiled by jptxas for every SM they support and run in the SASS emulator with Volta's strict convergence: diverged
 * threads re-join only at BSYNC, WARPSYNC, BAR or EXIT, and a warp-synchronous instruction missing threads is a fault
 * ({@link SuiteEndToEndTest} runs the whole suite with the emulator's default convergence). Every pair must compute
 * its reference, or be listed in {@link #KNOWN} with the reason.
 */
class SyncSuiteEndToEndTest {
    /** An instruction that synchronizes threads or memory, at the start of a PTX line (after a guard). */
    private static final Pattern SYNC = Pattern.compile("(?m)^\\s*(@!?%p\\d+\\s+)?(bar\\.|barrier\\.|atom\\.|red\\."
            + "|membar|fence|shfl|vote|match|redux|call|activemask)");

    private static final String UNIFORM_LOOP = "jptxas's uniform-operand loop for bulk copies and mbarrier.init (ELECT"
            + " a lane, serve the lanes with its values, repeat) ends in WARPSYNC.ALL while the other lanes already wait"
            + " at the barrier: a deadlock under strict convergence (default convergence runs it right; ptxas proves the"
            + " operands uniform and needs no loop)";

    /** Pairs ("kernel sm_XX") not correct in strict convergence, with why. */
    static final Map<String, String> KNOWN = Map.of("tma_tile_2d sm_90", UNIFORM_LOOP);

    /** The suite kernels whose PTX synchronizes. */
    static List<KernelCase> syncKernels() {
        return KernelSuite.all().stream().filter(k -> {
            try {
                return SYNC.matcher(Files.readString(k.ptx(), StandardCharsets.ISO_8859_1)).find();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    static Gate gate(List<SuiteRun.Outcome> outcomes, int pairs) {
        Gate gate = SuiteRun.judge("sync kernels in strict convergence", outcomes, KNOWN);
        gate.verify(pairs);
        return gate;
    }

    @Test
    @Tag("slow")
    void syncKernelsOnEverySmInStrictConvergence(@TempDir Path dir) {
        List<KernelCase> kernels = syncKernels();
        int pairs = SuiteRun.pairs(kernels).size();
        List<SuiteRun.Outcome> outcomes = new SuiteRun(true).runAll(kernels, dir);
        System.out.print(SuiteRun.report(outcomes));
        Gate gate = gate(outcomes, pairs);
        System.out.println(gate.summary() + " over " + kernels.stream().map(KernelCase::name).toList());
        Figures.check("suite.sync.pairs", pairs);
    }
}
