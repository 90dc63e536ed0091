package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel suite compiled by jptxas for sm_75 … sm_90 and run in the SASS emulator against the CPU references.
 * Prints, per SM, how many kernels are correct and why the others are not (instructions not lowered yet are
 * "unsupported", by name; internal compile errors are listed with their message). Fails on a wrong result or a
 * fault (the silent killers), or on fewer correct kernels than the floor.
 */
class SuiteEndToEndTest {
    /** Kernels correct per SM at least (raise as the pipeline grows). */
    static final Map<String, Integer> FLOOR = Map.of("sm_75", 56, "sm_80", 57, "sm_86", 57, "sm_89", 57, "sm_90", 57);

    @Test
    @Tag("slow")
    void wholeSuiteOnEverySm(@TempDir Path dir) {
        List<SuiteRun.Outcome> outcomes = new SuiteRun().runAll(KernelSuite.all(), dir);
        String report = SuiteRun.report(outcomes);
        System.out.print(report);
        Map<String, Integer> correct = SuiteRun.correctPerSm(outcomes);
        for (String arch : SuiteRun.ARCHES) {
            int n = correct.getOrDefault(arch, 0);
            assertTrue(n >= FLOOR.get(arch), arch + ": " + n + " correct, floor " + FLOOR.get(arch) + "\n" + report);
        }
        List<SuiteRun.Outcome> bad = outcomes.stream().filter(o -> o.kind() == SuiteRun.Kind.WRONG
                || o.kind() == SuiteRun.Kind.FAULT).toList();
        assertTrue(bad.isEmpty(), bad.size() + " kernel-SM pairs failed:\n" + report);
    }
}
