package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SASS emulator on ptxas 13's cubins of the suite, for sm_75 … sm_90, decoded by jptxas's own SASS decoder (no
 * NVIDIA tool; that the decoder prints these cubins exactly as nvdisasm does is isel-common's SassDifferentialTest,
 * whose probe samples include the suite). The invariant checked for every kernel: the emulator either reproduces the
 * reference or stops with "unimplemented instruction"; it never completes with a wrong value. A floor of kernels must
 * run to completion, and the coverage (instruction classes seen vs executed) is printed.
 */
class SassEmulatorSuiteTest {
    static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    /** Kernels the emulator must run to completion on every SM (part of every build). */
    static final Set<String> MUST_COMPLETE = Set.of("saxpy", "vec_add_i32", "reduce_sum_f32", "stencil_1d",
            "scan_block_i32", "gemm_tile_f32", "dynamic_shared", "constant_mem");

    /** The kernels that must complete, on every SM, decoded by jptxas (no NVIDIA tool). */
    @Test
    void coreKernelsRunOnEverySm(@TempDir Path dir) throws Exception {
        check(dir, KernelSuite.all().stream().filter(k -> MUST_COMPLETE.contains(k.name())).toList());
    }

    /**
     * Launches of suite kernels with other inputs, for code paths the suite's own inputs do not reach (coverage):
     * gemm_tile_f32 with N = 64 runs ptxas's 4x-unrolled main loop (taken for N > 48), whose exit test is the only
     * ISETP.LE.AND in the suite's code.
     */
    static final List<KernelCase> COVERAGE_VARIANTS = List.of(KernelSuite.gemmTile(64));

    /** Instruction classes seen in the cubins of the last {@link #check} but never executed. */
    private Set<String> notExecuted = Set.of();

    /** Kernels of the whole suite that complete, per SM (every kernel the SM supports: warp_redux needs sm_80). */
    static final Map<String, Integer> COMPLETED_FLOOR = Map.of("sm_75", 51, "sm_80", 52, "sm_86", 52, "sm_89", 52, "sm_90", 52);

    /** The whole suite decoded by jptxas: wrong values never, stops by name allowed (CI's corpus profile). */
    @Test
    @Tag("slow")
    void wholeSuiteMatchesTheReferenceOrStopsByName(@TempDir Path dir) throws Exception {
        List<KernelCase> kernels = new ArrayList<>(KernelSuite.all());
        kernels.addAll(COVERAGE_VARIANTS);
        Map<String, Set<String>> completed = check(dir, kernels);
        assertTrue(notExecuted.isEmpty(), "instruction classes of ptxas's code the suite never executes: " + notExecuted);
        for (String arch : ARCHES) {
            int n = completed.getOrDefault(arch, Set.of()).size();
            assertTrue(n >= COMPLETED_FLOOR.get(arch), arch + ": only " + n + " kernels completed, floor "
                    + COMPLETED_FLOOR.get(arch));
        }
    }

    /**
     * Runs {@code kernels} on every SM from ptxas 13's cubins decoded by jptxas; every kernel must reproduce its
     * reference or stop by name (unimplemented instruction, or bits the decoder does not know).
     */
    Map<String, Set<String>> check(Path dir, List<KernelCase> kernels) throws Exception {
        Oracles.assumePtxas13();
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        Map<String, Set<String>> completed = new ConcurrentHashMap<>();
        Set<String> seen = ConcurrentHashMap.newKeySet(), executed = ConcurrentHashMap.newKeySet();
        Map<String, Integer> stops = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger hazards = new java.util.concurrent.atomic.AtomicInteger();
        ConcurrentLinkedQueue<String> hazardExamples = new ConcurrentLinkedQueue<>(), hazardsUnavailable = new ConcurrentLinkedQueue<>();
        java.util.concurrent.atomic.AtomicLong warpInstructions = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicInteger executedHazards = new java.util.concurrent.atomic.AtomicInteger();
        ConcurrentLinkedQueue<String> executedExamples = new ConcurrentLinkedQueue<>();
        java.util.concurrent.atomic.AtomicLong cycles = new java.util.concurrent.atomic.AtomicLong(), warps = new java.util.concurrent.atomic.AtomicLong();
        kernels.parallelStream().forEach(k -> {
            for (String arch : ARCHES) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                try {
                    OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
                    if (!c.ok()) {
                        wrong.add(k.name() + " " + arch + ": ptxas failed");
                        continue;
                    }
                    Path cubin = c.cubin().orElseThrow();
                    SassEmulator emu = SassEmulator.fromCubin(arch, Files.readAllBytes(cubin)).withStrictConvergence(true);
                    seen.addAll(emu.classesSeen());
                    SassEmulator.HazardReport h = emu.hazards();
                    hazards.addAndGet(h.hazards().size());
                    h.hazards().stream().limit(1).forEach(x -> hazardExamples.add(k.name() + " " + arch + " " + x));
                    h.unavailable().ifPresent(u -> hazardsUnavailable.add(k.name() + " " + arch + ": " + u));
                    Path d = Files.createTempDirectory(dir, k.name() + "-" + arch + "-"); // variants share names
                    Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(d)));
                    long t0 = System.nanoTime();
                    SassEmulator.TimedResult timed = emu.executeTimed(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
                    LaunchResult r = timed.result();
                    nanos.addAndGet(System.nanoTime() - t0);
                    executedHazards.addAndGet(timed.timing().hazards().size());
                    timed.timing().hazards().stream().limit(1).forEach(x -> executedExamples.add(k.name() + " " + arch + " " + x));
                    timed.timing().unavailable().filter(u -> r.completed())
                            .ifPresent(u -> hazardsUnavailable.add(k.name() + " " + arch + " (executed): " + u));
                    cycles.addAndGet(timed.timing().totalCycles());
                    warps.addAndGet(timed.timing().warps());
                    warpInstructions.addAndGet(r.warpInstructions());
                    executed.addAll(emu.classesExecuted());
                    if (r.fault().isPresent()) {
                        Fault f = r.fault().get();
                        if (f instanceof Fault.Unimplemented u) {
                            stops.merge(u.name() + " [" + k.name() + " " + arch + " " + u.instruction() + "]", 1, Integer::sum);
                        } else {
                            wrong.add(k.name() + " " + arch + ": " + f.describe());
                        }
                        continue;
                    }
                    Map<String, byte[]> actual = new LinkedHashMap<>();
                    int i = 0;
                    for (KernelCase.Arg a : k.args()) {
                        if (a instanceof KernelCase.Buffer b && b.output()) {
                            actual.put(b.name(), launch.arguments().get(i).buffer().orElseThrow().bytes());
                        }
                        i++;
                    }
                    List<String> problems = k.compare(actual, 3);
                    if (problems.isEmpty()) {
                        completed.computeIfAbsent(arch, x -> ConcurrentHashMap.newKeySet()).add(k.name());
                    } else {
                        wrong.add(arch + ": " + String.join("; ", problems));
                    }
                } catch (Exception e) {
                    wrong.add(k.name() + " " + arch + ": " + e);
                }
            }
        });
        Set<String> notExecuted = new TreeSet<>(seen);
        notExecuted.removeAll(executed);
        this.notExecuted = notExecuted;
        System.out.println("SASS emulator: completed per SM: " + new TreeSet<>(completed.keySet()).stream()
                .map(a -> a + "=" + completed.get(a).size()).toList());
        System.out.println("SASS emulator: instruction classes seen " + seen.size() + ", executed " + executed.size()
                + (notExecuted.isEmpty() ? "" : "; not executed: " + notExecuted));
        System.out.println("SASS emulator: stops by unimplemented instruction: " + new java.util.TreeMap<>(stops));
        System.out.printf("SASS emulator: %d warp instructions in %.2f s of launches (all threads of the pool)%n",
                warpInstructions.get(), nanos.get() / 1e9);
        // Information only: the scheduler's latency model is not exact yet (issue 6 wants zero on ptxas's code).
        System.out.println("SASS emulator: hazards on ptxas's code (scheduler's model): " + hazards
                + "; first per cubin: " + hazardExamples.stream().limit(10).toList()
                + "; not checked: " + hazardsUnavailable.size() + " " + hazardsUnavailable.stream().limit(3).toList());
        System.out.println("SASS emulator: hazards on the executed paths (scheduler's model, per executed instruction): "
                + executedHazards + "; first per cubin: " + executedExamples.stream().limit(10).toList());
        System.out.printf("SASS emulator: %d warps, %.0f cycles per warp on average (latency model)%n", warps.get(),
                warps.get() == 0 ? 0.0 : (double) cycles.get() / warps.get());
        assertTrue(wrong.isEmpty(), "wrong results or unexpected faults:\n" + String.join("\n", wrong));
        List<String> missing = new ArrayList<>();
        for (String arch : ARCHES) {
            for (String k : MUST_COMPLETE) {
                if (kernels.stream().noneMatch(x -> x.name().equals(k))) {
                    continue;
                }
                if (!completed.getOrDefault(arch, Set.of()).contains(k)) {
                    missing.add(k + " " + arch);
                }
            }
        }
        assertTrue(missing.isEmpty(), "did not complete: " + missing);
        return completed;
    }
}
