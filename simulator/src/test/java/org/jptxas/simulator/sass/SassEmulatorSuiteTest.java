package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * The SASS emulator on ptxas 13's cubins of the suite, for sm_75 … sm_90, decoded by jptxas's own SASS decoder (no
 * NVIDIA tool; that the decoder prints these cubins exactly as nvdisasm does is isel-common's SassDifferentialTest,
 * whose probe samples include the suite). Every kernel must reproduce its reference on every SM it supports (an
 * "unimplemented instruction" stop is a failure unless {@link #KNOWN} lists it with its reason), and ptxas's control
 * bits must be hazard-free under the latency model both statically and along the executed paths (each executed read
 * checked against the encoded stalls and scoreboards): ptxas's code is the reference the model is calibrated on. The
 * completed kernels per SM are figures, and every instruction class of ptxas's code must be executed (coverage).
 */
class SassEmulatorSuiteTest {
    static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    /** Kernels the emulator must run to completion on every SM in every build (the fast test). */
    static final Set<String> MUST_COMPLETE = Set.of("saxpy", "vec_add_i32", "reduce_sum_f32", "stencil_1d",
            "scan_block_i32", "gemm_tile_f32", "dynamic_shared", "constant_mem");

    /**
     * Kernel/SM pairs ({@code kernel@sm_XX}) that may fail, each with its reason. Empty: every kernel runs on every SM
     * it supports. An entry that passes fails the gate as stale.
     */
    static final Map<String, String> KNOWN = Map.of("bulk_copy_mbarrier@sm_90", "the latency model has no calibrated"
            + " class for SYNCS (mapped to LDS's): ptxas 13 reads SYNCS operands one cycle earlier than that class"
            + " allows (3 static hazards, 1 on the executed path); the kernel's result is right");

    /**
     * Launches of suite kernels with other inputs, for code paths the suite's own inputs do not reach (coverage):
     * gemm_tile_f32 with N = 64 runs ptxas's 4x-unrolled main loop (taken for N > 48), whose exit test is the only
     * ISETP.LE.AND in the suite's code.
     */
    static final List<KernelCase> COVERAGE_VARIANTS = List.of(KernelSuite.gemmTile(64));

    /** A cubin of a kernel for an SM, or ptxas's diagnostics when it has none. */
    record Cubin(Optional<byte[]> bytes, String diagnostics) {
        static Cubin ptxas13(KernelCase k, String arch) {
            OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
            try {
                return c.ok() ? new Cubin(Optional.of(Files.readAllBytes(c.cubin().orElseThrow())), "")
                        : new Cubin(Optional.empty(), c.diagnostics());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The gate, the kernels completed per SM, and the instruction classes seen but never executed. */
    record Run(Gate gate, Map<String, Set<String>> completed, Set<String> notExecuted) {
        int pairs(String arch) {
            return completed.getOrDefault(arch, Set.of()).size();
        }
    }

    /**
     * The gate's core: runs each kernel's cubin on each of {@code arches} it supports. A pair passes when the static
     * hazard check of its control bits finds nothing, the launch completes, the executed-path check was complete and
     * found nothing, and the outputs equal the reference; otherwise it is a difference (by name, with every problem)
     * unless {@link #KNOWN}. No cubin is an oracle failure; an exception of the emulator is a crash.
     */
    static Run check(Path dir, List<KernelCase> kernels, List<String> arches, Map<String, String> known,
                     BiFunction<KernelCase, String, Cubin> cubins) {
        Gate gate = Gate.withKnown("SASS emulator on the suite", known);
        Map<String, Set<String>> completed = new ConcurrentHashMap<>();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Set<String> executed = ConcurrentHashMap.newKeySet();
        AtomicLong warpInstructions = new AtomicLong();
        AtomicLong nanos = new AtomicLong();
        AtomicLong cycles = new AtomicLong();
        AtomicLong warps = new AtomicLong();
        kernels.parallelStream().forEach(k -> {
            for (String arch : arches) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                String key = k.name() + "@" + arch;
                Cubin c = cubins.apply(k, arch);
                if (c.bytes().isEmpty()) {
                    gate.oracleFailed(key, c.diagnostics());
                    continue;
                }
                try {
                    List<String> problems = new ArrayList<>();
                    SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(arch), c.bytes().get()).withStrictConvergence(true);
                    seen.addAll(emu.classesSeen());
                    SassEmulator.HazardReport h = emu.hazards();
                    h.unavailable().ifPresent(u -> problems.add("static hazard check not made: " + u));
                    if (!h.hazards().isEmpty()) {
                        problems.add("static hazards: " + h.hazards().size() + ", first " + h.hazards().get(0));
                    }
                    Path d = Files.createTempDirectory(dir, k.name() + "-" + arch + "-"); // variants share names
                    Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(d)));
                    long t0 = System.nanoTime();
                    SassEmulator.TimedResult timed = emu.executeTimed(launch,
                            ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
                    LaunchResult r = timed.result();
                    nanos.addAndGet(System.nanoTime() - t0);
                    warpInstructions.addAndGet(r.warpInstructions());
                    executed.addAll(emu.classesExecuted());
                    SassEmulator.Timing timing = timed.timing();
                    timing.unavailable().ifPresent(u -> problems.add("executed-path hazard check not made: " + u));
                    if (timing.partial()) {
                        problems.add("executed-path hazard check incomplete (budget or truncated trace)");
                    }
                    if (!timing.hazards().isEmpty()) {
                        problems.add("executed-path hazards: " + timing.hazards().size() + ", first "
                                + timing.hazards().get(0));
                    }
                    cycles.addAndGet(timing.totalCycles());
                    warps.addAndGet(timing.warps());
                    if (r.fault().isPresent()) {
                        Fault f = r.fault().get();
                        problems.add((f instanceof Fault.Unimplemented ? "stopped: " : "fault: ") + f.describe());
                    } else {
                        List<String> wrong = k.compare(SuiteRun.outputs(k, launch), 3);
                        if (!wrong.isEmpty()) {
                            problems.add("wrong result: " + String.join("; ", wrong));
                        } else if (problems.isEmpty()) {
                            completed.computeIfAbsent(arch, x -> ConcurrentHashMap.newKeySet()).add(k.name());
                        }
                    }
                    if (problems.isEmpty()) {
                        gate.pass();
                    } else {
                        gate.differ(key, String.join("; ", problems));
                    }
                } catch (Exception | StackOverflowError e) {
                    gate.crash(key, e);
                }
            }
        });
        Set<String> notExecuted = new TreeSet<>(seen);
        notExecuted.removeAll(executed);
        Map<String, Integer> perSm = new TreeMap<>();
        completed.forEach((a, s) -> perSm.put(a, s.size()));
        System.out.println(gate.summary());
        System.out.println("SASS emulator: completed per SM: " + perSm);
        System.out.println("SASS emulator: instruction classes seen " + seen.size() + ", executed " + executed.size()
                + (notExecuted.isEmpty() ? "" : "; not executed: " + notExecuted));
        System.out.printf("SASS emulator: %d warp instructions in %.2f s of launches (all threads of the pool)%n",
                warpInstructions.get(), nanos.get() / 1e9);
        System.out.printf("SASS emulator: %d warps, %.0f cycles per warp on average (latency model)%n", warps.get(),
                warps.get() == 0 ? 0.0 : (double) cycles.get() / warps.get());
        return new Run(gate, completed, notExecuted);
    }


    private static int supportedPairs(List<KernelCase> kernels, List<String> arches) {
        int n = 0;
        for (KernelCase k : kernels) {
            for (String arch : arches) {
                n += k.supports(Integer.parseInt(arch.substring(3))) ? 1 : 0;
            }
        }
        return n;
    }

    /** The core kernels complete on every SM, decoded by jptxas (no NVIDIA tool but ptxas). */
    @Test
    void coreKernelsRunOnEverySm(@TempDir Path dir) {
        Oracles.assumePtxas13();
        List<KernelCase> kernels = KernelSuite.all().stream().filter(k -> MUST_COMPLETE.contains(k.name())).toList();
        assertEquals(MUST_COMPLETE.size(), kernels.size(), "every core kernel is in the suite");
        Run run = check(dir, kernels, ARCHES, Map.of(), Cubin::ptxas13);
        run.gate().verify(supportedPairs(kernels, ARCHES));
    }

    /** The whole suite (and coverage variants) on every SM (CI's corpus profile). */
    @Test
    @Tag("slow")
    void wholeSuiteMatchesTheReferenceHazardFree(@TempDir Path dir) {
        Oracles.assumePtxas13();
        List<KernelCase> kernels = new ArrayList<>(KernelSuite.all());
        kernels.addAll(COVERAGE_VARIANTS);
        Run run = check(dir, kernels, ARCHES, KNOWN, Cubin::ptxas13);
        run.gate().verify(supportedPairs(kernels, ARCHES));
        assertTrue(run.notExecuted().isEmpty(), "instruction classes of ptxas's code the suite never executes: "
                + run.notExecuted());
        for (String arch : ARCHES) {
            Figures.check("simulator.emulator.completed." + arch, run.pairs(arch));
        }
    }

    // The gate's own logic on planted input: committed ptxas cubins (SassEmulatorFixtureTest), no NVIDIA tool.

    private static Cubin fixture(KernelCase k, String arch) {
        try {
            return new Cubin(Optional.of(SassEmulatorFixtureTest.cubin(k.name(), arch)), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<KernelCase> saxpy() {
        return List.of(KernelSuite.byName("saxpy").orElseThrow());
    }

    @Test
    void theGatePassesOnPtxasCode(@TempDir Path dir) {
        Run run = check(dir, saxpy(), List.of("sm_75", "sm_90"), Map.of(), SassEmulatorSuiteTest::fixture);
        run.gate().verify(2);
        assertEquals(1, run.pairs("sm_90"));
    }

    @Test
    void aDroppedWaitFailsTheGateStaticallyAndOnTheExecutedPath(@TempDir Path dir) {
        for (String arch : List.of("sm_75", "sm_90")) {
            PlantedFaults.Planted p = PlantedFaults.dropNeededWait(fixture(saxpy().get(0), arch).bytes().orElseThrow(),
                    arch).orElseThrow();
            Run run = check(dir, saxpy(), List.of(arch), Map.of(), (k, a) -> new Cubin(Optional.of(p.cubin()), ""));
            assertFalse(run.gate().passes(1), arch);
            String why = String.join("\n", run.gate().differences());
            String at = String.format("first %s+0x%04x: RAW_SCOREBOARD", p.function(), 16 * p.index());
            assertTrue(why.contains("static hazards: ") && why.contains("executed-path hazards: ")
                    && why.split(java.util.regex.Pattern.quote(at), -1).length == 3, p.where() + " is caught statically and on the executed path: " + why);
        }
    }

    @Test
    void anEmptySuiteFailsTheGate(@TempDir Path dir) {
        Run run = check(dir, List.of(), ARCHES, Map.of(), SassEmulatorSuiteTest::fixture);
        assertFalse(run.gate().passes(1));
    }

    @Test
    void aPtxasFailureFailsTheGate(@TempDir Path dir) {
        Run run = check(dir, saxpy(), List.of("sm_75"), Map.of(), (k, a) -> new Cubin(Optional.empty(), "planted"));
        assertEquals(1, run.gate().oracleFailures().size());
        assertFalse(run.gate().passes(1));
    }

    @Test
    void theWrongCubinFailsTheGateByName(@TempDir Path dir) {
        // constant_mem's cubin launched as saxpy: the entry is not there, the emulator refuses by name
        Run run = check(dir, saxpy(), List.of("sm_75"), Map.of(),
                (k, a) -> fixture(KernelSuite.byName("constant_mem").orElseThrow(), a));
        assertFalse(run.gate().passes(1));
        assertEquals(1, run.gate().crashes().size() + run.gate().differences().size(), run.gate().summary());
    }

    @Test
    void aStaleKnownFailureFailsTheGate(@TempDir Path dir) {
        Run run = check(dir, saxpy(), List.of("sm_75"), Map.of("saxpy@sm_75", "planted: it passes"),
                SassEmulatorSuiteTest::fixture);
        assertEquals(1, run.gate().stale().size());
        assertFalse(run.gate().passes(1));
    }
}
