package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.spi.CompileOptions;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * Same input, same output: with pre- and post-allocation scheduling, reuse flags and control repair in the pipeline,
 * compiling a kernel twice gives byte-identical cubins (no iteration over hash orders anywhere); and -O0, which moves
 * nothing, still gets hazard-free control bits. Every kernel/SM pair listed compiles today: a compile error or a
 * crash fails the gate by name instead of being skipped.
 */
class ScheduledCodeDeterminismTest {
    static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_90");

    /** One compilation: the cubin, or what the compiler threw. */
    interface Compile {
        byte[] cubin(KernelCase k, String arch) throws CompilationException;
    }

    /** What to check on each compiled cubin. */
    interface Check {
        /** Empty when fine, else why not. */
        String problem(KernelCase k, String arch, byte[] cubin, Compile compile) throws CompilationException;
    }

    /** The gate's core: every supported (kernel, SM) compiled and checked, failures by name. */
    static Gate run(String name, List<String> kernels, Compile compile, Check check) {
        Gate gate = Gate.named(name);
        for (String kernel : kernels) {
            KernelCase k = KernelSuite.byName(kernel).orElseThrow();
            for (String arch : ARCHES) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                String key = kernel + "@" + arch;
                try {
                    String problem = check.problem(k, arch, compile.cubin(k, arch), compile);
                    if (problem.isEmpty()) {
                        gate.pass();
                    } else {
                        gate.differ(key, problem);
                    }
                } catch (CompilationException e) {
                    gate.differ(key, "does not compile: " + e.getMessage());
                } catch (RuntimeException | StackOverflowError e) {
                    gate.crash(key, e);
                }
            }
        }
        return gate;
    }

    static final Check SAME_BYTES_TWICE = (k, arch, first, compile) ->
            Arrays.equals(first, compile.cubin(k, arch)) ? "" : "the second compilation differs";

    static final Check HAZARD_FREE = (k, arch, cubin, compile) -> {
        List<String> hazards = ControlAgreement.checkHazards(cubin, TestTargets.of(arch));
        return hazards.isEmpty() ? "" : hazards.size() + " hazards, first " + hazards.get(0);
    };

    private static final List<String> DETERMINISM_KERNELS = List.of("gemm_tile_f32", "bitonic_sort", "sqrt_rcp_f32",
            "splitmix64");
    private static final List<String> O0_KERNELS = List.of("gemm_tile_f32", "sqrt_rcp_f32", "f64_div_sqrt");

    private static int pairs(List<String> kernels) {
        int n = 0;
        for (String kernel : kernels) {
            KernelCase k = KernelSuite.byName(kernel).orElseThrow();
            n += (int) ARCHES.stream().filter(a -> k.supports(Integer.parseInt(a.substring(3)))).count();
        }
        return n;
    }

    @Test
    void compilingTwiceGivesTheSameBytes() {
        SuiteRun run = new SuiteRun();
        run("determinism", DETERMINISM_KERNELS,
                (k, arch) -> run.compile(k.ptx(), arch, CompileOptions.defaults()).cubin(), SAME_BYTES_TWICE)
                .verify(pairs(DETERMINISM_KERNELS));
    }

    /** -O0 moves nothing, and its control bits are still hazard-free by the static checker. */
    @Test
    void minusO0ControlBitsAreHazardFree() {
        SuiteRun run = new SuiteRun();
        CompileOptions o0 = new CompileOptions(0, OptionalInt.empty(), false, false, false, false, false);
        run("-O0 hazard-free", O0_KERNELS, (k, arch) -> run.compile(k.ptx(), arch, o0).cubin(), HAZARD_FREE)
                .verify(pairs(O0_KERNELS));
    }

    // The gate's own logic on planted compilers.

    @Test
    void aThrowingCompileIsACrashAndACompileErrorADifference() {
        Gate crash = run("planted", List.of("saxpy"), (k, arch) -> {
            throw new IllegalStateException("planted");
        }, SAME_BYTES_TWICE);
        assertEquals(ARCHES.size(), crash.crashes().size());
        assertFalse(crash.passes(1));
        Gate error = run("planted", List.of("saxpy"), (k, arch) -> {
            throw new CompilationException(List.of());
        }, SAME_BYTES_TWICE);
        assertEquals(ARCHES.size(), error.differences().size());
    }

    @Test
    void differentBytesTheSecondTimeFail() {
        AtomicInteger n = new AtomicInteger();
        Gate g = run("planted", List.of("saxpy"), (k, arch) -> new byte[] {(byte) n.incrementAndGet()}, SAME_BYTES_TWICE);
        assertEquals(ARCHES.size(), g.differences().size());
    }

    @Test
    void aHazardFails() {
        Gate g = run("planted", List.of("saxpy"), (k, arch) -> new byte[0],
                (k, arch, cubin, c) -> "1 hazards, first planted");
        assertFalse(g.passes(1));
        assertFalse(run("planted", new ArrayList<>(), (k, arch) -> new byte[0], HAZARD_FREE).passes(1), "nothing compiled");
    }
}
