package org.jptxas.sass.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.RepoRoot;

/**
 * The oracle jobs (PTX file × SM) whose ptxas 13 output and nvdisasm 12.5 listing drive table derivation and the
 * differential test: every corpus file ptxas accepts, for each of sm_75 ... sm_90 its {@code .target} allows
 * (sm_90a targets compile for sm_90a), plus the project's own probe kernels.
 */
public final class OracleSamples {
    public static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    /**
     * One compilation: {@code arch} is what ptxas gets, {@code sm} the table it belongs to; {@code relocatable}
     * compiles with {@code -c} (calls and returns then use the absolute, relocated forms such as RET.ABS.NODEC).
     */
    public record Job(Path ptx, String arch, String sm, boolean relocatable) {
        public Job(Path ptx, String arch, String sm) {
            this(ptx, arch, sm, false);
        }
    }

    /** A probe kernel carrying this line is also compiled with {@code -c}. */
    static final String RELOCATABLE_MARKER = "// sass-probe: relocatable";

    /**
     * A probe kernel carrying this line feeds only its own {@code .target}'s table, not the newer SMs' too: the
     * instruction-form suite's probe modules are chosen per SM (the words that SM's tables lacked), and compiling each
     * for every newer SM would only repeat samples at several times the oracle cost.
     */
    static final String TARGET_ONLY_MARKER = "// sass-probe: target only";

    /** One compiled and disassembled job. */
    public record Result(Job job, NvdisasmListing listing, String error) {}

    private OracleSamples() {}

    /** SMs of {@link #SMS} a {@code .target} value allows ({@code sm_90a} → only sm_90a). */
    public static List<String> allowed(String target) {
        String t = target.strip().toLowerCase(Locale.ROOT);
        int comma = t.indexOf(',');
        if (comma >= 0) {
            t = t.substring(0, comma).strip();
        }
        if (!t.startsWith("sm_")) {
            return List.of();
        }
        if (t.endsWith("a")) {
            return t.equals("sm_90a") ? List.of("sm_90a") : List.of();
        }
        int v;
        try {
            v = Integer.parseInt(t.substring(3));
        } catch (NumberFormatException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String sm : SMS) {
            if (Integer.parseInt(sm.substring(3)) >= v) {
                out.add(sm);
            }
        }
        return out;
    }

    public static List<Job> corpusJobs() {
        List<Job> jobs = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (!e.ptxasAccepts()) {
                continue;
            }
            for (String arch : allowed(e.get("target"))) {
                jobs.add(new Job(e.file(), arch, arch.equals("sm_90a") ? "sm_90" : arch));
            }
        }
        return jobs;
    }

    /**
     * The project's probe kernels ({@code tools/sass-probe/kernels/*.ptx}) and the kernel suite's
     * ({@code kernels/<name>/<name>.ptx}, the code the SASS emulator runs).
     */
    public static List<Job> kernelJobs() {
        Path root = RepoRoot.find().orElseThrow();
        List<Job> jobs = new ArrayList<>(kernelJobs(root.resolve("tools/sass-probe/kernels")));
        Path suite = root.resolve("kernels");
        if (Files.isDirectory(suite)) {
            try (var s = Files.list(suite)) {
                for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
                    jobs.addAll(kernelJobs(d));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return jobs;
    }

    private static List<Job> kernelJobs(Path dir) {
        List<Job> jobs = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return jobs;
        }
        try (var s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".ptx")).sorted().toList()) {
                String target = targetOf(p);
                String text = Files.readString(p);
                boolean alsoRelocatable = text.contains(RELOCATABLE_MARKER);
                List<String> arches = allowed(target);
                if (text.contains(TARGET_ONLY_MARKER) && !arches.isEmpty()) {
                    arches = arches.subList(0, 1);
                }
                for (String arch : arches) {
                    String sm = arch.equals("sm_90a") ? "sm_90" : arch;
                    jobs.add(new Job(p, arch, sm));
                    if (alsoRelocatable) {
                        jobs.add(new Job(p, arch, sm, true));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jobs;
    }

    static String targetOf(Path ptx) throws IOException {
        for (String line : Files.readAllLines(ptx)) {
            String t = line.strip();
            if (t.startsWith(".target")) {
                return t.substring(".target".length()).strip();
            }
        }
        return "";
    }

    /** Compiles (cached) and disassembles (cached) every job, two at a time. */
    public static List<Result> run(List<Job> jobs) {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Result>> fs = new ArrayList<>();
            for (Job j : jobs) {
                fs.add(pool.submit(() -> runOne(j)));
            }
            List<Result> out = new ArrayList<>();
            for (Future<Result> f : fs) {
                out.add(f.get());
            }
            return out;
        } catch (ExecutionException e) {
            // the job's own failure (a missing oracle tool names itself), not the executor's wrapper of it
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The job's ptxas 13 compilation (from the shared cache). */
    public static OracleCubins.Compiled compile(Job j) {
        return j.relocatable()
                ? OracleCubins.ptxas13(j.ptx(), j.arch(), "-c")
                : OracleCubins.ptxas13(j.ptx(), j.arch());
    }

    static Result runOne(Job j) {
        OracleCubins.Compiled c = compile(j);
        if (!c.ok()) {
            return new Result(j, null, "ptxas: " + c.diagnostics().lines().findFirst().orElse(""));
        }
        try {
            return new Result(j, OracleListings.cubin(c.cubin().orElseThrow()), null);
        } catch (RuntimeException e) {
            return new Result(j, null, "nvdisasm: " + e.getMessage());
        }
    }

    /** Every instruction of the listings as samples. */
    public static List<Sample> samples(List<Result> results) {
        List<Sample> out = new ArrayList<>();
        for (Result r : results) {
            if (r.listing() == null) {
                continue;
            }
            for (NvdisasmListing.Section s : r.listing().sections()) {
                for (NvdisasmListing.Line l : s.lines()) {
                    out.add(new Sample(l.lo(), l.hi(), l.address(), l.text(), s.labels()));
                }
            }
        }
        return out;
    }
}
