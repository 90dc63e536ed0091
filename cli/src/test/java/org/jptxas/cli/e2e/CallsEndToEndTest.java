package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.spi.CompileOptions;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * True calls in the SASS emulator with Volta's strict convergence (threads re-join only at BSYNC, WARPSYNC, BAR or
 * EXIT, and a warp-synchronous instruction missing threads is a fault): {@code call_diverge} calls a recursive
 * function inside a divergent region whose callee diverges too, then shuffles over the whole warp, so the callee must
 * give back the caller's convergence barrier it reuses. The slow test runs every {@code call_*} suite kernel at -O0
 * and -O3 on every SM: each must compute its reference.
 */
class CallsEndToEndTest {
    /** The suite's call kernels: a new one must be added here (and so is run), a removed one fails. */
    static final List<String> CALL_KERNELS = List.of("call_deep_local", "call_diverge", "call_func", "call_indirect", "call_outlined",
            "call_recursive", "call_wide");

    @Test
    void callInsideDivergentRegionReconverges(@TempDir Path dir) {
        KernelCase k = KernelSuite.byName("call_diverge").orElseThrow();
        SuiteRun run = new SuiteRun(true);
        Gate gate = Gate.named("call_diverge in strict convergence");
        for (String arch : SuiteRun.ARCHES) {
            judge(gate, run.run(k, arch, dir), arch);
        }
        gate.verify(SuiteRun.ARCHES.size());
    }

    private static void judge(Gate gate, SuiteRun.Outcome o, String key) {
        switch (o.kind()) {
            case CORRECT -> gate.pass();
            case CRASH -> gate.crash(key, o.error());
            default -> gate.differ(key, o.kind() + " " + o.detail());
        }
    }

    /** Every kernel of {@code calls} on every SM it supports, at -O0 and -O3: two items per pair. */
    static Gate gate(SuiteRun run, List<KernelCase> calls, Path dir) {
        Gate gate = Gate.named("call kernels at -O0 and -O3 in strict convergence");
        for (int level : new int[] {0, 3}) {
            CompileOptions options = new CompileOptions(level, OptionalInt.empty(), false, false, false, false, false);
            Path d;
            try {
                d = Files.createDirectories(dir.resolve("O" + level));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            SuiteRun.pairs(calls).parallelStream().forEach(p -> judge(gate, run.run(p.kernel(), p.arch(), d, options),
                    p.key() + " -O" + level));
        }
        gate.verify(2 * SuiteRun.pairs(KernelSuite.all().stream().filter(k -> CALL_KERNELS.contains(k.name()))
                .toList()).size());
        return gate;
    }

    @Test
    @Tag("slow")
    void everyCallKernelAtO0AndO3(@TempDir Path dir) {
        List<KernelCase> calls = KernelSuite.all().stream().filter(c -> c.name().startsWith("call_")).toList();
        assertEquals(CALL_KERNELS, calls.stream().map(KernelCase::name).sorted().toList());
        System.out.println(gate(new SuiteRun(true), calls, dir).summary());
    }
}
