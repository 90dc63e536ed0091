package org.jptxas.cli.e2e;

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
 * The kernel suite compiled by jptxas for sm_75 … sm_90 and run in the SASS emulator against the CPU references:
 * every kernel on every SM it supports must compute its reference, or be listed in {@link #KNOWN} with the reason
 * (an exact list: a listed pair that turns correct fails too). Crashes of the compiler or the emulator fail by name.
 * The counts are the README's figures.
 */
class SuiteEndToEndTest {
    /** Kernel/SM pairs ("kernel sm_XX") that are not correct, with why. None: every pair computes its reference. */
    static final Map<String, String> KNOWN = Map.of();

    /** The gate over a run's outcomes; {@code pairs} is what the suite defines (every one must have been run). */
    static Gate gate(List<SuiteRun.Outcome> outcomes, int pairs) {
        Gate gate = SuiteRun.judge("suite end to end", outcomes, KNOWN);
        gate.verify(pairs);
        return gate;
    }

    @Test
    @Tag("slow")
    void wholeSuiteOnEverySm(@TempDir Path dir) {
        List<KernelCase> all = KernelSuite.all();
        int pairs = SuiteRun.pairs(all).size();
        List<SuiteRun.Outcome> outcomes = new SuiteRun().runAll(all, dir);
        System.out.print(SuiteRun.report(outcomes));
        Gate gate = gate(outcomes, pairs);
        System.out.println(gate.summary());
        Figures.check("suite.kernels", all.size());
        Figures.check("suite.pairs", pairs);
        Figures.check("suite.e2e.correct", outcomes.stream().filter(o -> o.kind() == SuiteRun.Kind.CORRECT).count());
    }
}
