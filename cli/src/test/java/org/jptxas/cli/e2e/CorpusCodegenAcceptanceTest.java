package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.isel.spi.BackendRegistry;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7's corpus acceptance for code generation: for sm_75, sm_80, sm_86, sm_89 and sm_90, every ptxas-accepted
 * file of the shared corpus whose {@code .target} allows the SM is compiled in-process and ends in one of three
 * classes: compiled; out of scope (a named "not yet supported" for tensor-core, async-copy, TMA, texture or surface
 * instructions, which the issue leaves for later); or failed. Every compiled cubin must be read by nvdisasm 12.5 as
 * exactly our {@code --out-sass} text and bin/jnvdisasm's, be accepted by {@code cuobjdump -elf}, and its {@code -c}
 * object (CUDA 12 format) must link with nvlink 12.5. A failure fails the test unless {@link #KNOWN_FAILURES} names
 * it with its reason (another helper's area). Per-SM counts go to stdout and {@code target/reports/corpus-codegen.txt}.
 */
class CorpusCodegenAcceptanceTest {

    /** Instructions issue 7 leaves for later; a "not yet supported" naming one of them is out of scope. */
    static final Pattern OUT_OF_SCOPE = Pattern.compile("Instruction '((?:w?mma|wgmma|ldmatrix|stmatrix|movmatrix"
            + "|cp\\.async|cp\\.reduce\\.async|tcgen05|tensormap|tex|tld4|txq|suld|sust|sured|suq|istypep)"
            + "(?:\\.[^']*)?)' not yet supported");

    /**
     * Failures known and accepted for now, each with its reason. Keys are a corpus path (relative to the corpus
     * folder; every SM) or {@code path@sm_XX} (that SM only). Entries that compile now are reported as stale. Empty:
     * the last ones (SASS forms the tables lacked) were derived with tools/sass-probe/kernels/codegen_gaps_next.ptx.
     */
    static final Map<String, String> KNOWN_FAILURES = Map.of();

    enum Verdict { COMPILED, OUT_OF_SCOPE, FAILED, KNOWN }

    record Outcome(String file, String arch, Verdict verdict, String detail) {}

    private final BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());

    /** Whether a file whose ptxas_arch column is {@code ptxasArch} compiles for {@code arch}. */
    static boolean targetAllows(String ptxasArch, String arch) {
        String want = ptxasArch.startsWith("sm_") ? ptxasArch.substring(3) : ptxasArch;
        if (want.isEmpty() || !want.chars().allMatch(Character::isDigit)) {
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
        List<Callable<Outcome>> tasks = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            for (Corpus.Entry e : entries) {
                if (e.ptxasAccepts() && targetAllows(e.arch(), arch)) {
                    String rel = corpus.relativize(e.file()).toString();
                    tasks.add(() -> check(e.file(), rel, arch, dir, nvdisasm, cuobjdump, nvlink));
                }
            }
        }
        List<Outcome> outcomes = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            for (Callable<Outcome> t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<Outcome> f : futures) {
                outcomes.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        String report = report(outcomes);
        System.out.println(report);
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(reports.resolve("corpus-codegen.txt"), report, StandardCharsets.UTF_8);
        List<Outcome> failed = outcomes.stream().filter(o -> o.verdict() == Verdict.FAILED).toList();
        assertTrue(failed.isEmpty(), () -> failed.size() + " unexpected failures, first: " + failed.get(0));
        // Issue 8: the hazard checker finds nothing in any cubin jptxas produces for the corpus.
        List<Outcome> hazardous = outcomes.stream()
                .filter(o -> o.verdict() == Verdict.COMPILED && !o.detail().isEmpty()).toList();
        assertTrue(hazardous.isEmpty(), () -> hazardous.size() + " cubins with hazards, first: " + hazardous.get(0));
        // The known-failure list stays honest: an entry that compiles now must go.
        List<String> stale = staleKnownFailures(outcomes);
        assertTrue(stale.isEmpty(), () -> "known failures that no longer fail (remove them): " + stale);
    }

    private Outcome check(Path ptx, String rel, String arch, Path dir, Path nvdisasm, Path cuobjdump, Path nvlink) {
        String known = KNOWN_FAILURES.getOrDefault(rel + "@" + arch, KNOWN_FAILURES.get(rel));
        ModuleCodegen.Result r;
        try {
            r = OracleAcceptanceTest.compilePtx(registry, ptx, arch, false, false);
        } catch (CompilationException e) {
            String msg = e.diagnostics().isEmpty() ? String.valueOf(e.getMessage())
                    : e.diagnostics().get(0).format("jptxas");
            Matcher m = OUT_OF_SCOPE.matcher(msg);
            if (m.find()) {
                return new Outcome(rel, arch, Verdict.OUT_OF_SCOPE, m.group(1));
            }
            return failure(rel, arch, known, msg);
        } catch (Exception | StackOverflowError e) {
            return failure(rel, arch, known, "crash: " + e);
        }
        try {
            String base = rel.replace('/', '_') + "-" + arch;
            Path cubin = dir.resolve(base + ".cubin");
            Files.write(cubin, r.cubin());
            Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
            if (dis.exitCode() != 0) {
                return failure(rel, arch, known, "nvdisasm: " + dis.stderr().strip());
            }
            List<String> theirs = OracleAcceptanceTest.codeLines(dis.stdout());
            List<String> ours = OracleAcceptanceTest.codeLines(r.sass());
            if (!theirs.equals(ours)) {
                return failure(rel, arch, known, "nvdisasm text differs from --out-sass:\n"
                        + OracleAcceptanceTest.firstDifference(theirs, ours));
            }
            List<String> jnv = OracleAcceptanceTest.codeLines(org.jptxas.cli.JnvdisasmRunner.listing(cubin));
            if (!theirs.equals(jnv)) {
                return failure(rel, arch, known, "jnvdisasm text differs from nvdisasm:\n"
                        + OracleAcceptanceTest.firstDifference(theirs, jnv));
            }
            Processes.Result elf = OracleToolRuns.run(cuobjdump, List.of("-elf"), cubin, dir, false);
            if (elf.exitCode() != 0) {
                return failure(rel, arch, known, "cuobjdump -elf: " + elf.stderr().strip());
            }
            ModuleCodegen.Result object = OracleAcceptanceTest.compilePtx(registry, ptx, arch, true, true);
            Path obj = dir.resolve(base + ".o");
            Files.write(obj, object.cubin());
            Processes.Result link = OracleToolRuns.run(nvlink, List.of("-arch=" + arch, "-o", base + ".linked"), obj,
                    dir, false);
            if (link.exitCode() != 0) {
                return failure(rel, arch, known, "nvlink 12.5: " + link.stderr().strip());
            }
            return new Outcome(rel, arch, Verdict.COMPILED, hazards(r.cubin(), arch));
        } catch (Exception | StackOverflowError e) {
            return failure(rel, arch, known, "crash after compiling: " + e);
        }
    }

    private static Outcome failure(String rel, String arch, String known, String message) {
        String first = message.lines().findFirst().orElse(message);
        return known != null ? new Outcome(rel, arch, Verdict.KNOWN, first + " [known: " + known + "]")
                : new Outcome(rel, arch, Verdict.FAILED, message);
    }

    /** Issue 8: the static hazard checker's findings in our cubin ("" when there are none). */
    private static String hazards(byte[] cubin, String arch) {
        List<String> found = org.jptxas.scheduler.sass.ControlAgreement.checkHazards(cubin, arch);
        return found.isEmpty() ? "" : found.size() + " hazard(s), first: " + found.get(0).strip();
    }

    static String report(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder("corpus code generation (issue 7 acceptance):\n");
        Map<String, Map<Verdict, Integer>> counts = new TreeMap<>();
        for (Outcome o : outcomes) {
            counts.computeIfAbsent(o.arch(), a -> new EnumMap<>(Verdict.class)).merge(o.verdict(), 1, Integer::sum);
        }
        counts.forEach((arch, c) -> sb.append(String.format("  %s: %d files: %d compiled, %d out of scope, %d known"
                + " failures (other helpers' areas), %d failed%n", arch, c.values().stream().mapToInt(i -> i).sum(),
                c.getOrDefault(Verdict.COMPILED, 0), c.getOrDefault(Verdict.OUT_OF_SCOPE, 0),
                c.getOrDefault(Verdict.KNOWN, 0), c.getOrDefault(Verdict.FAILED, 0))));
        Map<String, Integer> hazardous = new TreeMap<>();
        outcomes.stream().filter(o -> o.verdict() == Verdict.COMPILED && !o.detail().isEmpty())
                .forEach(o -> hazardous.merge(o.arch(), 1, Integer::sum));
        sb.append("  compiled cubins with hazards (static checker, issue 8; must be none): ").append(hazardous).append('\n');
        outcomes.stream().filter(o -> o.verdict() == Verdict.COMPILED && !o.detail().isEmpty())
                .sorted((a, b) -> (a.file() + a.arch()).compareTo(b.file() + b.arch()))
                .forEach(o -> sb.append("  HAZARDS ").append(o.arch()).append(' ').append(o.file()).append(": ")
                        .append(o.detail()).append('\n'));
        Map<String, Integer> scope = new TreeMap<>();
        outcomes.stream().filter(o -> o.verdict() == Verdict.OUT_OF_SCOPE)
                .forEach(o -> scope.merge(o.detail().replaceAll("\\..*", ""), 1, Integer::sum));
        sb.append("  out of scope by instruction: ").append(scope).append('\n');
        List<String> stale = staleKnownFailures(outcomes);
        if (!stale.isEmpty()) {
            sb.append("  known failures that no longer fail (remove them): ").append(stale).append('\n');
        }
        for (Verdict v : List.of(Verdict.FAILED, Verdict.KNOWN)) {
            outcomes.stream().filter(o -> o.verdict() == v)
                    .sorted((a, b) -> (a.file() + a.arch()).compareTo(b.file() + b.arch()))
                    .forEach(o -> sb.append("  ").append(v).append(' ').append(o.arch()).append(' ').append(o.file())
                            .append(": ").append(o.detail()).append('\n'));
        }
        return sb.toString();
    }

    /** The {@link #KNOWN_FAILURES} keys no outcome was a known failure of (sorted). */
    private static List<String> staleKnownFailures(List<Outcome> outcomes) {
        return KNOWN_FAILURES.keySet().stream()
                .filter(key -> outcomes.stream().noneMatch(o -> o.verdict() == Verdict.KNOWN
                        && (key.equals(o.file()) || key.equals(o.file() + "@" + o.arch()))))
                .sorted().toList();
    }
}
