package org.jptxas.cli.e2e;

import static org.jptxas.testing.kernels.KernelSuite.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.kernels.Elem;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The asynchronous-copy forms of issue 23 that jptxas once refused (resource {@code async_gap_forms.ptx}, 64
 * threads): {@code cp.async} with an ignore-src predicate (16 bytes .cg, 8 bytes .ca: LDGSTS's read predicate
 * negated) and with an L2 cache policy, {@code createpolicy.fractional} with a secondary priority,
 * {@code fence.proxy.async.global} (FENCE.VIEW.ASYNC.G) and {@code mbarrier.arrive_drop[.noComplete]} (SYNCS
 * .OPTOUT), whose lowered expected count lets the second phase complete with 32 arrivals. The PTX interpreter, the
 * SASS emulator on ptxas 13's cubin and on jptxas's compute the reference; nvdisasm 12.5 reads jptxas's cubin as
 * jptxas prints it, without hazards; without {@code cp.async.wait_all} the copies never land (interpreter and
 * jptxas's cubin). {@code cp.async.mbarrier.arrive[.noinc]} (resource {@code cp_async_mbarrier.ptx}, a per-thread
 * and a uniform barrier address) the same way: the copies land when their barrier's phase is checked, and without
 * those checks they never do.
 */
class AsyncGapFormsEndToEndTest {
    private static final String ARCH = "sm_90a";
    private static final String NAME = "async_gap_forms.ptx";

    private static KernelCase kernelCase(Path ptx) {
        int[] in = new int[256];
        for (int i = 0; i < in.length; i++) {
            in[i] = 1000 + 7 * i;
        }
        return kernel("async_gap_forms").describe("cp.async ignore-src and cache hints, arrive_drop (sm_90a)").ptx(ptx)
                .minSm(90).grid(1).block(64).in("in", in).out("out", Elem.I32, 256).out("hinted", Elem.I32, 64)
                .out("pairs", Elem.I32, 128).out("phases", Elem.I32, 64)
                .reference(io -> {
                    int[] out = io.i32("out");
                    int[] hinted = io.i32("hinted");
                    int[] pairs = io.i32("pairs");
                    int[] phases = io.i32("phases");
                    for (int t = 0; t < 64; t++) {
                        int a = (t + 1) % 64;
                        int b = (t + 5) % 64;
                        int c = (t + 7) % 64;
                        for (int k = 0; k < 4; k++) {
                            out[4 * t + k] = a % 3 == 0 ? 0 : in[4 * a + k];
                        }
                        hinted[t] = in[b];
                        for (int k = 0; k < 2; k++) {
                            pairs[2 * t + k] = c >= 40 ? 0 : in[128 + 2 * c + k];
                        }
                        phases[t] = t + 1;
                    }
                });
    }

    private static KernelCase mbarrierCase(Path ptx) {
        int[] in = new int[320];
        for (int i = 0; i < in.length; i++) {
            in[i] = 5 * i - 700;
        }
        return kernel("cp_async_mbarrier").describe("cp.async.mbarrier.arrive[.noinc] (sm_90a)").ptx(ptx)
                .minSm(90).grid(1).block(64).in("in", in).out("outA", Elem.I32, 64).out("outB", Elem.I32, 256)
                .reference(io -> {
                    int[] outA = io.i32("outA");
                    int[] outB = io.i32("outB");
                    for (int t = 0; t < 64; t++) {
                        outA[t] = in[(t + 3) % 64];
                        for (int k = 0; k < 4; k++) {
                            outB[4 * t + k] = in[64 + 4 * ((t + 9) % 64) + k];
                        }
                    }
                });
    }

    private static List<String> interpreted(KernelCase k, String ptx, Path dir) throws Exception {
        Launch launch = Launch.prepare(Target.of(ARCH), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = PtxInterpreter.load("k.ptx", ptx).execute(launch, ExecutionLimits.DEFAULT);
        return r.completed() ? k.compare(SuiteRun.outputs(k, launch), 5)
                : List.of("fault: " + r.fault().orElseThrow().describe());
    }

    private static ModuleCodegen.Result compile(Path ptx) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(AsyncGapFormsEndToEndTest.class.getClassLoader());
        return OracleAcceptanceTest.compilePtx(registry, ptx, ARCH, false, false);
    }

    @Test
    void jptxasWritesPtxasFormsThatNvdisasmReadsWithoutHazards(@TempDir Path dir) throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, NAME);
        ModuleCodegen.Result r = compile(ptx);
        // the ignore-src copies take a read predicate (the optimizer folds the negation into the compare)
        for (String form : List.of("FENCE.VIEW.ASYNC.G", "LDGSTS.E.BYPASS.128 [", "LDGSTS.E.64 [", "], P",
                "SYNCS.ARRIVE.TRANS64.TMASK.OPTOUT.ART0", "SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0")) {
            assertTrue(r.sass().contains(form), form + " missing:\n" + r.sass());
        }
        Path cubin = dir.resolve("ours.cubin");
        Files.write(cubin, r.cubin());
        Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
        assertEquals(0, dis.exitCode(), dis.stderr());
        List<String> theirs = OracleAcceptanceTest.codeLines(dis.stdout());
        List<String> ours = OracleAcceptanceTest.codeLines(r.sass());
        assertEquals(theirs, ours, () -> OracleAcceptanceTest.firstDifference(theirs, ours));
        assertEquals(List.of(), ControlAgreement.checkHazards(r.cubin(), TestTargets.of(ARCH)));
    }

    @Test
    void interpreterAndBothCubinsComputeTheReference(@TempDir Path dir) throws Exception {
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, NAME);
        KernelCase k = kernelCase(ptx);
        List<String> problems = new ArrayList<>();
        interpreted(k, Files.readString(ptx), Files.createDirectory(dir.resolve("interp")))
                .forEach(p -> problems.add("interpreter: " + p));
        EmulatedKernelRun.run(ARCH, k, compile(ptx).cubin(), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        if (Oracles.ptxas13().isPresent()) {
            OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, ARCH);
            assertTrue(theirs.ok(), theirs.diagnostics());
            EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                    2_000_000, problems, "ptxas");
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void copiesTrackedByAnMbarrierLandAtItsPhaseThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, "cp_async_mbarrier.ptx");
        KernelCase k = mbarrierCase(ptx);
        ModuleCodegen.Result ours = compile(ptx);
        for (String form : List.of("SYNCS.ARRIVE.TRANS64.RED.A0T1", "ARRIVES.LDGSTSBAR.64.TRANSCNT",
                "ARRIVES.LDGSTSBAR.64.ARVCNT")) {
            assertTrue(ours.sass().contains(form), form + " missing:\n" + ours.sass());
        }
        List<String> problems = new ArrayList<>();
        interpreted(k, Files.readString(ptx), Files.createDirectory(dir.resolve("interp")))
                .forEach(p -> problems.add("interpreter: " + p));
        EmulatedKernelRun.run(ARCH, k, ours.cubin(), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        if (Oracles.ptxas13().isPresent()) {
            OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, ARCH);
            assertTrue(theirs.ok(), theirs.diagnostics());
            EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                    2_000_000, problems, "ptxas");
        }
        assertEquals(List.of(), problems);
        if (Oracles.nvdisasm().isPresent()) {
            Path cubin = dir.resolve("cam.cubin");
            Files.write(cubin, ours.cubin());
            Processes.Result dis = OracleToolRuns.run(Oracles.nvdisasm().get(), List.of("-c"), cubin, dir, true);
            assertEquals(0, dis.exitCode(), dis.stderr());
            List<String> theirs = OracleAcceptanceTest.codeLines(dis.stdout());
            List<String> printed = OracleAcceptanceTest.codeLines(ours.sass());
            assertEquals(theirs, printed, () -> OracleAcceptanceTest.firstDifference(theirs, printed));
        }
        assertEquals(List.of(), ControlAgreement.checkHazards(ours.cubin(), TestTargets.of(ARCH)));
        // without the phase checks of bufA's barriers the copies never land (the emulator's poison is read)
        String noWait = Files.readString(ptx).replaceAll(
                "(?m)^waitA1?:\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!%p[23] bra waitA1?;\\n", "");
        assertFalse(noWait.equals(Files.readString(ptx)), "the waits were not found");
        Path file = dir.resolve("no_wait.ptx");
        Files.writeString(file, noWait);
        KernelCase without = mbarrierCase(file);
        assertFalse(interpreted(without, noWait, Files.createDirectory(dir.resolve("interp2"))).isEmpty(),
                "the interpreter computed the reference without the waits");
        List<String> ourProblems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, without, compile(file).cubin(), dir.resolve("jptxas2"), 2_000_000, ourProblems,
                "jptxas");
        assertFalse(ourProblems.isEmpty(), "jptxas's cubin computed the reference without the waits");
    }

    @Test
    void withoutTheWaitTheCopiesNeverLand(@TempDir Path dir) throws Exception {
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, NAME);
        String text = Files.readString(ptx);
        String noWait = text.replace("  cp.async.wait_all;\n", "");
        assertFalse(noWait.equals(text), "the wait was not found");
        Path file = dir.resolve("no_wait.ptx");
        Files.writeString(file, noWait);
        KernelCase k = kernelCase(file);
        assertFalse(interpreted(k, noWait, Files.createDirectory(dir.resolve("interp"))).isEmpty(),
                "the interpreter computed the reference without the wait");
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, k, compile(file).cubin(), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        assertFalse(problems.isEmpty(), "jptxas's cubin computed the reference without the wait");
    }
}
