package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.spi.TestTargets;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * Issue 7's corpus acceptance for code generation: for sm_75, sm_80, sm_86, sm_89 and sm_90, every ptxas-accepted
 * file of the shared corpus whose {@code .target} allows the SM is compiled in-process and ends in one of three
 * classes: compiled; out of scope (a "not yet supported" naming an instruction family of {@link #OUT_OF_SCOPE}, which
 * the issue leaves for later); or failed. Every compiled cubin must be read by nvdisasm 12.5 as exactly our
 * {@code --out-sass} text and bin/jnvdisasm's, be accepted by {@code cuobjdump -elf}, its {@code -c} object (CUDA 12
 * format) must link with nvlink 12.5, and the static hazard checker must find nothing in its control bits.
 *
 * <p>The gate ({@link #classify}): a failure is a difference by file and SM, an exception of our code a crash by
 * file and SM; the out-of-scope list is exact (a family that no longer occurs anywhere fails as stale); compiled
 * files per SM are figures. Per-SM counts go to stdout and {@code target/reports/corpus-codegen.txt}.
 */
public class CorpusCodegenAcceptanceTest {

    /**
     * The instruction families issue 7 leaves for later, each with its reason. Exact: each must stop some corpus file
     * on some SM. None is left: the old list's families (ldmatrix, cp.async, mma and wmma, which compile now
     * (cp.async.bulk occurs only in sm_90a files); stmatrix, movmatrix, cp.reduce.async, tcgen05, tensormap, tld4, txq,
     * suld, sust, sured, suq, istypep) stop no file the test compiles for sm_75 … sm_90, and wgmma compiles in every
     * sm_90a file since accumulators share registers when never live at once (issue 23); one that appears fails by
     * name.
     */
    public static final Map<String, String> OUT_OF_SCOPE = Map.of();

    /** A "not yet supported" naming an instruction; group 1 is its full name. */
    static final Pattern NOT_SUPPORTED = Pattern.compile("Instruction '([^']+)' not yet supported");

    /** The out-of-scope family a compiler message stops at, if it is a "not yet supported" of a listed family. */
    public static Optional<String> outOfScopeFamily(String message) {
        return outOfScopeFamily(OUT_OF_SCOPE, message);
    }

    /** The family of {@code families} a compiler message stops at (planted lists test the gate itself). */
    public static Optional<String> outOfScopeFamily(Map<String, String> families, String message) {
        Matcher m = NOT_SUPPORTED.matcher(message);
        return m.find() ? family(families, m.group(1)) : Optional.empty();
    }

    /** The out-of-scope family an instruction belongs to: the longest listed name it equals or starts with {@code .}. */
    static Optional<String> family(String instruction) {
        return family(OUT_OF_SCOPE, instruction);
    }

    private static Optional<String> family(Map<String, String> families, String instruction) {
        return families.keySet().stream()
                .filter(f -> instruction.equals(f) || instruction.startsWith(f + "."))
                .max((a, b) -> a.length() - b.length());
    }

    enum Verdict { COMPILED, OUT_OF_SCOPE, FAILED }

    /** One (file, SM)'s end: {@code detail} is the family (out of scope) or what failed. */
    record Outcome(String file, String arch, Verdict verdict, String detail) {
        String key() {
            return file + "@" + arch;
        }
    }

    /** One compilation to check. */
    record Task(Path ptx, String file, String arch) {}

    /** What the gate runs on each task: compiles and checks, returning the outcome, or throws (a crash). */
    interface Checker {
        Outcome check(Task t) throws Exception;
    }

    /** The gate and every outcome. */
    record Run(Gate gate, List<Outcome> outcomes) {
        /** Compiled files per SM. */
        Map<String, Integer> compiled() {
            Map<String, Integer> m = new TreeMap<>();
            outcomes.stream().filter(o -> o.verdict() == Verdict.COMPILED).forEach(o -> m.merge(o.arch(), 1, Integer::sum));
            return m;
        }
    }

    /**
     * The gate's core: runs {@code checker} on every task (on {@code threads} threads). Compiled passes; out of scope
     * is a known exception of its family; a failure is a difference by {@code file@arch}; an exception is a crash.
     */
    static Run classify(List<Task> tasks, Checker checker, int threads) throws Exception {
        return classify(OUT_OF_SCOPE, tasks, checker, threads);
    }

    /** {@link #classify(List, Checker, int)} with the out-of-scope families {@code known}. */
    static Run classify(Map<String, String> known, List<Task> tasks, Checker checker, int threads) throws Exception {
        Gate gate = Gate.withKnown("corpus code generation", known);
        ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Task t : tasks) {
                futures.add(pool.submit(() -> {
                    Outcome o;
                    try {
                        o = checker.check(t);
                    } catch (Exception | StackOverflowError e) {
                        gate.crash(t.file() + "@" + t.arch(), e);
                        return;
                    }
                    outcomes.add(o);
                    switch (o.verdict()) {
                        case COMPILED -> gate.pass();
                        case OUT_OF_SCOPE -> gate.differ(o.detail(), o.key());
                        case FAILED -> gate.differ(o.key(), o.detail());
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<Outcome> sorted = new ArrayList<>(outcomes);
        sorted.sort((a, b) -> (a.file() + a.arch()).compareTo(b.file() + b.arch()));
        return new Run(gate, sorted);
    }

    /** The suite's SMs and sm_90a, whose files (Triton's Hopper kernels with wgmma) compile only for it. */
    static final List<String> ARCHES = java.util.stream.Stream.concat(SuiteRun.ARCHES.stream(), java.util.stream.Stream.of("sm_90a")).toList();

    private final BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());

    /** Whether a file whose ptxas_arch column is {@code ptxasArch} compiles for {@code arch}. */
    static boolean targetAllows(String ptxasArch, String arch) {
        if (ptxasArch.equals(arch)) {
            return true; // sm_90a files compile for sm_90a
        }
        String want = ptxasArch.startsWith("sm_") ? ptxasArch.substring(3) : ptxasArch;
        if (want.isEmpty() || !arch.chars().skip(3).allMatch(Character::isDigit) || !want.chars().allMatch(Character::isDigit)) {
            return false; // sm_90a/sm_120a: arch-specific targets compile only for themselves
        }
        return Integer.parseInt(want) <= Integer.parseInt(arch.substring(3));
    }

    @Test
    @Tag("slow")
    void everyInScopeCorpusFileCompilesAndNvidiaToolsAcceptTheOutput(@TempDir Path dir) throws Exception {
        List<Corpus.Entry> entries = Corpus.assumeEntries();
        Path corpus = Corpus.assumeDir();
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path nvlink = Oracles.assumeNvlink();
        List<Task> tasks = new ArrayList<>();
        for (String arch : ARCHES) {
            for (Corpus.Entry e : entries) {
                if (e.ptxasAccepts() && targetAllows(e.arch(), arch)) {
                    tasks.add(new Task(e.file(), corpus.relativize(e.file()).toString(), arch));
                }
            }
        }
        Run run = classify(tasks, t -> check(t, dir, nvdisasm, cuobjdump, nvlink),
                Math.max(2, Runtime.getRuntime().availableProcessors()));
        String report = report(run);
        System.out.println(report);
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(reports.resolve("corpus-codegen.txt"), report, StandardCharsets.UTF_8);
        run.gate().verify(Math.max(1, tasks.size()));
        Map<String, Integer> compiled = run.compiled();
        // sm_90a's count (all 6 of its files) is in the report, not a README figure
        for (String arch : SuiteRun.ARCHES) {
            Figures.check("codegen.corpus.compiled." + arch, compiled.getOrDefault(arch, 0));
        }
    }

    /**
     * A fast slice of the gate above: the hand-written tensor-core files (wmma.mma f16/f32/tf32, mma.m8n8k4 f16 and
     * f64) on every SM ptxas takes them on, with the same checks.
     */
    @Test
    void handwrittenTensorCoreFilesCompileOnEverySm(@TempDir Path dir) throws Exception {
        Path corpus = Corpus.assumeDir();
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path nvlink = Oracles.assumeNvlink();
        List<Task> tasks = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            for (String f : List.of("less_slow_sm70.ptx", "less_slow_sm80.ptx")) {
                String rel = "ptx/handwritten_less_slow/" + f;
                if (targetAllows(f.equals("less_slow_sm70.ptx") ? "sm_75" : "sm_80", arch)) {
                    tasks.add(new Task(corpus.resolve(rel), rel, arch));
                }
            }
        }
        Run run = classify(tasks, t -> check(t, dir, nvdisasm, cuobjdump, nvlink), 2);
        // a crash leaves no outcome; the exact out-of-scope list is the whole corpus's business, not this slice's
        assertEquals(List.of(), run.outcomes().stream().filter(o -> o.verdict() != Verdict.COMPILED).toList());
        assertEquals(9, run.outcomes().size(), report(run));
    }

    /**
     * A fast slice for sm_90a: Triton's fp8 matmuls ({@code wgmma ... m64n64k32.f32.e5m2.e5m2}, QGMMA in SASS), with
     * the same checks.
     */
    @Test
    void tritonFp8WarpgroupMatmulsCompileForSm90a(@TempDir Path dir) throws Exception {
        List<String> names = new ArrayList<>();
        for (String v : List.of("v3.3.x", "v3.5.x", "v3.7.0")) {
            names.add(v + "__ptx__sm90__matmul_kernel_make_tensor_desciptor");
        }
        tritonSm90aFilesCompile(dir, names);
    }

    /**
     * Triton's warp-specialized attention (sm_90a), whose matrix descriptors are computed on the uniform datapath
     * (UIADD3, USHF, USGXT, ULOP3 feeding HGMMA), and Triton's f16 matmul: the same checks, so nvdisasm reads those
     * uniform instructions as jnvdisasm prints them and the hazard checker finds nothing.
     */
    @Test
    void tritonUniformDescriptorKernelsCompileForSm90a(@TempDir Path dir) throws Exception {
        tritonSm90aFilesCompile(dir, List.of("v3.4.0__ptx__sm90___attn_fwd_ws_pipelined_pingpong",
                "v3.2.0__ptx__sm90__matmul_kernel"));
    }

    /** The triton_runner files {@code names} (without .ptx) compile for sm_90a and pass {@link #check}. */
    private void tritonSm90aFilesCompile(Path dir, List<String> names) throws Exception {
        Path corpus = Corpus.assumeDir();
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path nvlink = Oracles.assumeNvlink();
        List<Task> tasks = new ArrayList<>();
        for (String name : names) {
            String rel = "ptx/triton_runner/" + name + ".ptx";
            tasks.add(new Task(corpus.resolve(rel), rel, "sm_90a"));
        }
        Run run = classify(tasks, t -> check(t, dir, nvdisasm, cuobjdump, nvlink), 2);
        assertEquals(List.of(), run.outcomes().stream().filter(o -> o.verdict() != Verdict.COMPILED).toList());
        assertEquals(names.size(), run.outcomes().size(), report(run));
    }

    private Outcome check(Task t, Path dir, Path nvdisasm, Path cuobjdump, Path nvlink) throws Exception {
        String rel = t.file();
        String arch = t.arch();
        ModuleCodegen.Result r;
        try {
            r = OracleAcceptanceTest.compilePtx(registry, t.ptx(), arch, false, false);
        } catch (CompilationException e) {
            String msg = e.diagnostics().isEmpty() ? String.valueOf(e.getMessage())
                    : e.diagnostics().get(0).format("jptxas");
            Optional<String> family = outOfScopeFamily(msg);
            return family.isPresent() ? new Outcome(rel, arch, Verdict.OUT_OF_SCOPE, family.get())
                    : new Outcome(rel, arch, Verdict.FAILED, msg);
        }
        String base = rel.replace('/', '_') + "-" + arch;
        Path cubin = dir.resolve(base + ".cubin");
        Files.write(cubin, r.cubin());
        Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
        if (dis.exitCode() != 0) {
            return failed(t, "nvdisasm: " + dis.stderr().strip());
        }
        List<String> theirs = OracleAcceptanceTest.codeLines(dis.stdout());
        List<String> ours = OracleAcceptanceTest.codeLines(r.sass());
        if (!theirs.equals(ours)) {
            return failed(t, "nvdisasm text differs from --out-sass:\n" + OracleAcceptanceTest.firstDifference(theirs, ours));
        }
        List<String> jnv = OracleAcceptanceTest.codeLines(org.jptxas.cli.JnvdisasmRunner.listing(cubin));
        if (!theirs.equals(jnv)) {
            return failed(t, "jnvdisasm text differs from nvdisasm:\n" + OracleAcceptanceTest.firstDifference(theirs, jnv));
        }
        Processes.Result elf = OracleToolRuns.run(cuobjdump, List.of("-elf"), cubin, dir, false);
        if (elf.exitCode() != 0) {
            return failed(t, "cuobjdump -elf: " + elf.stderr().strip());
        }
        ModuleCodegen.Result object = OracleAcceptanceTest.compilePtx(registry, t.ptx(), arch, true, true);
        Path obj = dir.resolve(base + ".o");
        Files.write(obj, object.cubin());
        Processes.Result link = OracleToolRuns.run(nvlink, List.of("-arch=" + arch, "-o", base + ".linked"), obj, dir,
                false);
        if (link.exitCode() != 0) {
            return failed(t, "nvlink 12.5: " + link.stderr().strip());
        }
        return hazardVerdict(t, ControlAgreement.checkHazards(r.cubin(), TestTargets.of(arch)));
    }

    private static Outcome failed(Task t, String why) {
        return new Outcome(t.file(), t.arch(), Verdict.FAILED, why);
    }

    /** Issue 8: the static hazard checker's findings in our cubin fail it. */
    static Outcome hazardVerdict(Task t, List<String> hazards) {
        return hazards.isEmpty() ? new Outcome(t.file(), t.arch(), Verdict.COMPILED, "")
                : failed(t, hazards.size() + " hazard(s) in jptxas's control bits, first: " + hazards.get(0).strip());
    }

    static String report(Run run) {
        StringBuilder sb = new StringBuilder("corpus code generation (issue 7 acceptance):\n");
        Map<String, Map<Verdict, Integer>> counts = new TreeMap<>();
        for (Outcome o : run.outcomes()) {
            counts.computeIfAbsent(o.arch(), a -> new EnumMap<>(Verdict.class)).merge(o.verdict(), 1, Integer::sum);
        }
        counts.forEach((arch, c) -> sb.append(String.format("  %s: %d files: %d compiled, %d out of scope, %d failed%n",
                arch, c.values().stream().mapToInt(i -> i).sum(), c.getOrDefault(Verdict.COMPILED, 0),
                c.getOrDefault(Verdict.OUT_OF_SCOPE, 0), c.getOrDefault(Verdict.FAILED, 0))));
        Map<String, Long> scope = run.outcomes().stream().filter(o -> o.verdict() == Verdict.OUT_OF_SCOPE)
                .collect(Collectors.groupingBy(Outcome::detail, TreeMap::new, Collectors.counting()));
        sb.append("  out of scope by family: ").append(scope).append('\n');
        sb.append("  ").append(run.gate().summary()).append('\n');
        run.gate().crashes().forEach(c -> sb.append("  CRASH ").append(c).append('\n'));
        run.gate().stale().forEach(s -> sb.append("  STALE out-of-scope family (remove it) ").append(s).append('\n'));
        run.outcomes().stream().filter(o -> o.verdict() == Verdict.FAILED)
                .forEach(o -> sb.append("  FAILED ").append(o.arch()).append(' ').append(o.file()).append(": ")
                        .append(o.detail()).append('\n'));
        return sb.toString();
    }

    // The gate's own logic on planted input (no oracle, no corpus), with a planted out-of-scope list.

    private static final Map<String, String> PLANTED = Map.of("tcgen05", "planted family", "suld", "planted family");

    private static List<Task> tasks(int n) {
        List<Task> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Task(Path.of("f" + i + ".ptx"), "f" + i + ".ptx", "sm_80"));
        }
        return out;
    }

    /** Every listed family once, the rest compiled: what a healthy run looks like. */
    private static Checker healthy(List<Task> tasks) {
        List<String> families = new ArrayList<>(new java.util.TreeSet<>(PLANTED.keySet()));
        return t -> {
            int i = tasks.indexOf(t);
            return i < families.size() ? new Outcome(t.file(), t.arch(), Verdict.OUT_OF_SCOPE, families.get(i))
                    : new Outcome(t.file(), t.arch(), Verdict.COMPILED, "");
        };
    }

    @Test
    void aHealthyRunPasses() throws Exception {
        List<Task> tasks = tasks(PLANTED.size() + 3);
        Run run = classify(PLANTED, tasks, healthy(tasks), 2);
        run.gate().verify(tasks.size());
        assertEquals(Map.of("sm_80", 3), run.compiled());
    }

    @Test
    void anEmptyCorpusFails() throws Exception {
        assertFalse(classify(PLANTED, List.of(), healthy(List.of()), 2).gate().passes(1));
    }

    @Test
    void aThrowingCompileIsACrashByName() throws Exception {
        List<Task> tasks = tasks(PLANTED.size() + 3);
        Checker ok = healthy(tasks);
        Run run = classify(PLANTED, tasks, t -> {
            if (t.file().equals("f" + PLANTED.size() + ".ptx")) {
                throw new IllegalStateException("planted compiler crash");
            }
            return ok.check(t);
        }, 2);
        assertFalse(run.gate().passes(1));
        assertEquals(1, run.gate().crashes().size());
        assertTrue(run.gate().crashes().get(0).startsWith("f" + PLANTED.size() + ".ptx@sm_80: "), run.gate().crashes().get(0));
    }

    @Test
    void anOutOfScopeFamilyThatNoLongerOccursIsStale() throws Exception {
        List<Task> tasks = tasks(PLANTED.size() + 3);
        Run run = classify(PLANTED, tasks, t -> new Outcome(t.file(), t.arch(), Verdict.COMPILED, ""), 2);
        assertEquals(PLANTED.size(), run.gate().stale().size());
        assertFalse(run.gate().passes(1));
    }

    @Test
    void aHazardInOurCodeFails() throws Exception {
        List<Task> tasks = tasks(PLANTED.size() + 3);
        Checker ok = healthy(tasks);
        Run run = classify(PLANTED, tasks, t -> t.file().equals("f" + PLANTED.size() + ".ptx")
                ? hazardVerdict(t, List.of("k+0x0030: RAW_SCOREBOARD: planted")) : ok.check(t), 2);
        assertEquals(1, run.gate().differences().size());
        assertFalse(run.gate().passes(1));
    }

    @Test
    void onlyListedFamiliesAreOutOfScope() {
        assertEquals(Optional.empty(), family("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3"), "wgmma"
                + " compiles (accumulators placed by liveness, issue 23)");
        assertEquals(Optional.empty(), family("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16"), "mma compiles");
        assertEquals(Optional.empty(), family("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16"), "wmma compiles");
        assertEquals(Optional.empty(), family("cp.async.cg.shared.global"), "cp.async compiles (bulk copies stop no"
                + " sm_75 ... sm_90 file)");
        assertEquals(Optional.empty(), family("tex.2d.v4.f32.f32"), "tex compiles (bound references and bindless"
                + " handles from kernel parameters)");
        assertEquals(Optional.empty(), family("ldmatrix.sync.aligned.m8n8.x4.shared.b16"), "ldmatrix compiles");
        assertEquals(Optional.empty(), family("mmax"), "a family name is a whole word");
    }
}
