package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jptxas.spi.CompileOptions;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.PlantedFaults;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.CorpusKernels;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * The hazard gate on jptxas's own code that does not go through the check the code generator repaired against: the
 * kernel suite's cubins, compiled by jptxas for sm_75 … sm_90, run in the SASS emulator with the executed-path check
 * (the simulator's {@code ExecutionTiming}: every read a thread executed, checked against the stalls and scoreboards
 * encoded in the cubin, along the path it really took, loops unrolled as they ran). The control repair sees only the
 * static control-flow graph with merged state; this check sees the encoded bits on real paths. Any hazard, an
 * incomplete check, a fault or a wrong result fails the pair by name. The shared corpus's kernels that have launch
 * specs (test-support's {@code CorpusKernels}) are checked the same way.
 */
class ExecutedHazardGateTest {
    /** One compilation of ours. */
    interface Compile {
        byte[] cubin(KernelCase k, String arch) throws CompilationException;
    }

    /** The gate and how many warp instructions were executed and checked. */
    record Run(Gate gate, long warpInstructions) {}

    /** The gate's core: each supported (kernel, SM) compiled, run with the executed-path check, and compared. */
    static Run check(Path dir, List<KernelCase> kernels, List<String> arches, Compile compile) {
        Gate gate = Gate.named("executed-path hazards in jptxas's cubins");
        AtomicLong executed = new AtomicLong();
        kernels.parallelStream().forEach(k -> {
            for (String arch : arches) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                String key = k.name() + "@" + arch;
                try {
                    byte[] cubin = compile.cubin(k, arch);
                    Path d = Files.createTempDirectory(dir, k.name() + "-" + arch + "-");
                    Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(d)));
                    SassEmulator.TimedResult timed = SassEmulator.fromCubin(TestTargets.of(arch), cubin)
                            .executeTimed(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
                    LaunchResult r = timed.result();
                    executed.addAndGet(r.warpInstructions());
                    SassEmulator.Timing t = timed.timing();
                    List<String> problems = new ArrayList<>();
                    t.unavailable().ifPresent(u -> problems.add("executed-path check not made: " + u));
                    if (t.partial()) {
                        problems.add("executed-path check incomplete (budget or truncated trace)");
                    }
                    if (!t.hazards().isEmpty()) {
                        problems.add("executed-path hazards: " + t.hazards().size() + ", first " + t.hazards().get(0));
                    }
                    if (r.fault().isPresent()) {
                        problems.add("fault: " + r.fault().get().describe());
                    } else {
                        List<String> wrong = k.compare(SuiteRun.outputs(k, launch), 3);
                        if (!wrong.isEmpty()) {
                            problems.add("wrong result: " + String.join("; ", wrong));
                        }
                    }
                    if (problems.isEmpty()) {
                        gate.pass();
                    } else {
                        gate.differ(key, String.join("; ", problems));
                    }
                } catch (CompilationException e) {
                    gate.differ(key, "does not compile: " + e.getMessage());
                } catch (Exception | StackOverflowError e) {
                    gate.crash(key, e);
                }
            }
        });
        return new Run(gate, executed.get());
    }


    private static Compile jptxas() {
        SuiteRun run = new SuiteRun();
        return (k, arch) -> run.compile(k.ptx(), arch, CompileOptions.defaults()).cubin();
    }

    @Test
    @Tag("slow")
    void jptxasSuiteCubinsAreHazardFreeOnTheExecutedPaths(@TempDir Path dir) {
        List<KernelCase> kernels = KernelSuite.all();
        Run run = check(dir, kernels, SuiteRun.ARCHES, jptxas());
        System.out.println(run.gate().summary() + "; " + run.warpInstructions() + " warp instructions executed");
        int pairs = 0;
        for (KernelCase k : kernels) {
            pairs += (int) SuiteRun.ARCHES.stream().filter(a -> k.supports(Integer.parseInt(a.substring(3)))).count();
        }
        run.gate().verify(Math.max(1, pairs));
    }

    @Test
    @Tag("slow")
    void jptxasCorpusCubinsAreHazardFreeOnTheExecutedPaths(@TempDir Path dir) {
        List<KernelCase> kernels = CorpusKernels.all();
        Run run = check(dir, kernels, SuiteRun.ARCHES, jptxas());
        System.out.println(run.gate().summary() + "; " + run.warpInstructions() + " warp instructions executed");
        run.gate().verify(Math.max(1, SuiteRun.pairs(kernels).size()));
    }

    // The gate's own logic: one of OUR cubins with a needed wait dropped from its encoded control bits.

    private static List<KernelCase> saxpy() {
        return List.of(KernelSuite.byName("saxpy").orElseThrow());
    }

    @Test
    void ourSaxpyPasses(@TempDir Path dir) {
        check(dir, saxpy(), List.of("sm_80"), jptxas()).gate().verify(1);
    }

    @Test
    void aWaitDroppedFromOurCubinFailsTheExecutedPathCheck(@TempDir Path dir) {
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            Compile ours = jptxas();
            List<String> where = new ArrayList<>();
            Run run = check(dir, saxpy(), List.of(arch), (k, a) -> {
                PlantedFaults.Planted p = PlantedFaults.dropNeededWait(ours.cubin(k, a), a).orElseThrow();
                where.add(p.where());
                return p.cubin();
            });
            System.out.println(arch + " planted: " + where.get(0) + " -> " + run.gate().differences());
            assertFalse(run.gate().passes(1), arch);
            assertEquals(1, run.gate().differences().size(), run.gate().summary());
            String why = run.gate().differences().get(0);
            String at = where.get(0).substring(0, where.get(0).indexOf(':'));
            assertTrue(why.contains("executed-path hazards: ") && why.contains("first " + at + ": RAW_SCOREBOARD"),
                    where.get(0) + " must be the first executed-path hazard: " + why);
        }
    }

    @Test
    void aThrowingCompileIsACrashAndNoKernelsFail(@TempDir Path dir) {
        Run crash = check(dir, saxpy(), List.of("sm_80"), (k, a) -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(1, crash.gate().crashes().size());
        assertFalse(check(dir, List.of(), List.of("sm_80"), jptxas()).gate().passes(1));
    }
}
