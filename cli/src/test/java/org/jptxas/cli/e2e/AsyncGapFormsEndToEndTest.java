package org.jptxas.cli.e2e;

import static org.jptxas.testing.kernels.KernelSuite.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.Elem;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The asynchronous-copy forms of issue 23 that jptxas once refused, run three ways (the PTX interpreter, the SASS
 * emulator on jptxas's cubin and on ptxas 13's), each with a kernel whose missing wait must be caught. Resource
 * {@code hopper/async_gap_forms.ptx} (64 threads): {@code cp.async} with an ignore-src predicate (16 bytes .cg, 8 bytes
 * .ca: LDGSTS's read predicate) and with an L2 cache policy, {@code createpolicy.fractional} with a secondary
 * priority, {@code fence.proxy.async.global} (FENCE.VIEW.ASYNC.G) and {@code mbarrier.arrive_drop[.noComplete]}
 * (SYNCS .OPTOUT), whose lowered expected count lets the second phase complete with 32 arrivals; without
 * {@code cp.async.wait_all} the copies never land. Resource {@code hopper/cp_async_mbarrier.ptx}:
 * {@code cp.async.mbarrier.arrive[.noinc]} on a per-thread and a uniform barrier address; the copies land when their
 * barrier's phase is checked, and without those checks they never do. Resource
 * {@code hopper/arrive_drop_expect_tx.ptx}: {@code mbarrier.arrive_drop.expect_tx} (SYNCS {@code .OPTOUT} alone), the
 * half of the block whose announced bytes a bulk copy completes and which then drops out of the second phase; without
 * the first phase's wait the copy never lands. {@code HopperAsyncFamiliesTest} holds the three to nvdisasm's reading
 * and the hazard checker.
 */
class AsyncGapFormsEndToEndTest {
    private static final String ARCH = "sm_90a";

    private static KernelCase gapCase(Path ptx) {
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
                        int c = (t + 7) % 64;
                        for (int k = 0; k < 4; k++) {
                            out[4 * t + k] = a % 3 == 0 ? 0 : in[4 * a + k];
                        }
                        hinted[t] = in[(t + 5) % 64];
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

    private static KernelCase dropExpectCase(Path ptx) {
        int[] in = new int[64];
        for (int i = 0; i < in.length; i++) {
            in[i] = 31 * i + 9;
        }
        return kernel("arrive_drop_expect_tx").describe("mbarrier.arrive_drop.expect_tx (sm_90a)").ptx(ptx)
                .minSm(90).grid(1).block(64).in("in", in).out("out", Elem.I32, 64).out("phases", Elem.I32, 64)
                .reference(io -> {
                    int[] out = io.i32("out");
                    int[] phases = io.i32("phases");
                    for (int t = 0; t < 64; t++) {
                        out[t] = in[(t + 5) % 64];
                        phases[t] = 2;
                    }
                });
    }

    static Path resource(Path dir, String name) throws Exception {
        Path ptx = dir.resolve(name + ".ptx");
        try (var in = AsyncGapFormsEndToEndTest.class.getResourceAsStream("hopper/" + name + ".ptx")) {
            Files.write(ptx, in.readAllBytes());
        }
        return ptx;
    }

    private static List<String> interpreted(KernelCase k, Path ptx, Path dir) throws Exception {
        Launch launch = Launch.prepare(Target.of(ARCH), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = PtxInterpreter.load("k.ptx", Files.readString(ptx)).execute(launch, ExecutionLimits.DEFAULT);
        return r.completed() ? k.compare(SuiteRun.outputs(k, launch), 5)
                : List.of("fault: " + r.fault().orElseThrow().describe());
    }

    private static byte[] ours(Path ptx) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(AsyncGapFormsEndToEndTest.class.getClassLoader());
        ModuleCodegen.Result r = OracleAcceptanceTest.compilePtx(registry, ptx, ARCH, false, false);
        return r.cubin();
    }

    /** The problems of the interpreter, jptxas's cubin and (when ptxas 13 is present) ptxas's, each prefixed. */
    static List<String> threeWays(KernelCase k, Path ptx, Path dir) throws Exception {
        List<String> problems = new ArrayList<>();
        interpreted(k, ptx, Files.createDirectories(dir.resolve("interp"))).forEach(p -> problems.add("interpreter: " + p));
        EmulatedKernelRun.run(ARCH, k, ours(ptx), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        if (Oracles.ptxas13().isPresent()) {
            OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, ARCH);
            assertTrue(theirs.ok(), theirs.diagnostics());
            EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                    2_000_000, problems, "ptxas");
        }
        return problems;
    }

    /** The kernel with {@code regex} deleted must not compute the reference in the interpreter or on our cubin. */
    private static void withoutWaitsWrong(Function<Path, KernelCase> kase, Path ptx, String regex, Path dir)
            throws Exception {
        String text = Files.readString(ptx);
        String cut = text.replaceAll(regex, "");
        assertFalse(cut.equals(text), "the wait was not found");
        Path file = Files.createDirectories(dir).resolve("no_wait.ptx");
        Files.writeString(file, cut);
        KernelCase k = kase.apply(file);
        assertFalse(interpreted(k, file, Files.createDirectory(dir.resolve("interp"))).isEmpty(),
                "the interpreter computed the reference without the wait");
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, k, ours(file), dir.resolve("jptxas"), 2_000_000, problems, "jptxas");
        assertFalse(problems.isEmpty(), "jptxas's cubin computed the reference without the wait");
    }

    @Test
    void jptxasWritesPtxasForms(@TempDir Path dir) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        String gap = OracleAcceptanceTest.compilePtx(registry, resource(dir, "async_gap_forms"), ARCH, false, false)
                .sass();
        // the ignore-src copies take a read predicate (the optimizer folds its negation into the compare)
        for (String form : List.of("FENCE.VIEW.ASYNC.G", "LDGSTS.E.BYPASS.128 [", "LDGSTS.E.64 [", "], P",
                "SYNCS.ARRIVE.TRANS64.TMASK.OPTOUT.ART0", "SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0")) {
            assertTrue(gap.contains(form), form + " missing:\n" + gap);
        }
        String tracked = OracleAcceptanceTest.compilePtx(registry, resource(dir, "cp_async_mbarrier"), ARCH, false,
                false).sass();
        for (String form : List.of("SYNCS.ARRIVE.TRANS64.RED.A0T1", "ARRIVES.LDGSTSBAR.64.TRANSCNT",
                "ARRIVES.LDGSTSBAR.64.ARVCNT")) {
            assertTrue(tracked.contains(form), form + " missing:\n" + tracked);
        }
        String dropped = OracleAcceptanceTest.compilePtx(registry, resource(dir, "arrive_drop_expect_tx"), ARCH, false,
                false).sass();
        assertTrue(dropped.matches("(?s).*SYNCS\\.ARRIVE\\.TRANS64\\.OPTOUT R\\d+, \\[R\\d+\\+URZ\\], R\\d+ .*"),
                dropped);
    }

    @Test
    void ignoreSrcCacheHintsAndArriveDropComputeTheReferenceThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = resource(dir, "async_gap_forms");
        assertEquals(List.of(), threeWays(gapCase(ptx), ptx, dir.resolve("run")));
        withoutWaitsWrong(AsyncGapFormsEndToEndTest::gapCase, ptx, "(?m)^\\s*cp\\.async\\.wait_all;\\n",
                dir.resolve("no-wait"));
    }

    @Test
    void copiesTrackedByAnMbarrierLandAtItsPhaseThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = resource(dir, "cp_async_mbarrier");
        assertEquals(List.of(), threeWays(mbarrierCase(ptx), ptx, dir.resolve("run")));
        // without the phase checks of bufA's barriers its copies never land (the poison is read)
        withoutWaitsWrong(AsyncGapFormsEndToEndTest::mbarrierCase, ptx,
                "(?m)^waitA1?:\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!%p[23] bra waitA1?;\\n", dir.resolve("no-wait"));
    }

    @Test
    void arriveDropExpectTxComputesTheReferenceThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = resource(dir, "arrive_drop_expect_tx");
        assertEquals(List.of(), threeWays(dropExpectCase(ptx), ptx, dir.resolve("run")));
        withoutWaitsWrong(AsyncGapFormsEndToEndTest::dropExpectCase, ptx,
                "(?m)^wait0:\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!%p3 bra wait0;\\n", dir.resolve("no-wait"));
    }
}
