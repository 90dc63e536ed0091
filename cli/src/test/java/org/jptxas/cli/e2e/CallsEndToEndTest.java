package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.isel.spi.CompileOptions;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * True calls in the SASS emulator with Volta's strict convergence (threads re-join only at BSYNC, WARPSYNC, BAR or
 * EXIT, and a warp-synchronous instruction missing threads is a fault): {@code call_diverge} calls a recursive
 * function inside a divergent region whose callee diverges too, then shuffles over the whole warp, so the callee must
 * give back the caller's convergence barrier it reuses. The slow test runs every {@code call_*} suite kernel at -O0
 * and -O3 on every SM.
 */
class CallsEndToEndTest {
    @Test
    void callInsideDivergentRegionReconverges(@TempDir Path dir) {
        KernelCase k = KernelSuite.all().stream().filter(c -> c.name().equals("call_diverge")).findFirst().orElseThrow();
        SuiteRun run = new SuiteRun(true);
        List<String> failures = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            SuiteRun.Outcome o = run.run(k, arch, dir);
            if (o.kind() != SuiteRun.Kind.CORRECT) {
                failures.add(arch + ": " + o.kind() + " " + o.detail());
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    @Tag("slow")
    void everyCallKernelAtO0AndO3(@TempDir Path dir) throws Exception {
        List<KernelCase> calls = KernelSuite.all().stream().filter(c -> c.name().startsWith("call_")).toList();
        assertTrue(calls.size() >= 5, "call kernels: " + calls);
        SuiteRun run = new SuiteRun(true);
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int level : new int[] {0, 3}) {
            CompileOptions options = new CompileOptions(level, OptionalInt.empty(), false, false, false, false, false);
            Path d = Files.createDirectories(dir.resolve("O" + level));
            calls.parallelStream().forEach(k -> {
                for (String arch : SuiteRun.ARCHES) {
                    if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                        continue;
                    }
                    SuiteRun.Outcome o = run.run(k, arch, d, options);
                    // a form the tables lack is the SASS engine's gap (named in SuiteEndToEndTest), not a call bug
                    if (o.kind() != SuiteRun.Kind.CORRECT && o.kind() != SuiteRun.Kind.UNSUPPORTED
                            && !(o.kind() == SuiteRun.Kind.COMPILE_ERROR && o.detail().contains("encoding form"))) {
                        failures.add(k.name() + " " + arch + " -O" + level + ": " + o.kind() + " " + o.detail());
                    }
                }
            });
        }
        assertEquals(List.of(), failures);
    }
}
