package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code jptxas-batch [ptxas options] [--jobs N] a.ptx b.ptx ...}: compiles each input separately, in one process,
 * with exactly the path {@code jptxas} takes (the same command object per input), each to its own cubin. ptxas merges
 * several inputs into one cubin, which fails on the many corpus files that define the same names; this is the one
 * invocation over a whole corpus that issue 7's compile-time report times against ptxas on the same files.
 * Options: {@code --out-dir DIR} (default: a temporary folder, deleted; the cubin of input number i is
 * {@code i-NAME.cubin}), {@code --quiet-errors}, {@code --jobs N} (compile N inputs at a time in parallel threads;
 * default 1). Each cubin is the same, byte for byte, whatever N and whatever the order of the inputs (issue 22), and
 * the messages are printed in input order.
 */
public final class JptxasBatchMain {
    private JptxasBatchMain() {}

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        System.exit(run(args, out));
    }

    /** One input's outcome: its exit code and what it printed on stderr. */
    private record Outcome(int rc, String err) {}

    static int run(String[] args, PrintWriter out) throws Exception {
        List<String> options = new ArrayList<>();
        List<String> inputs = new ArrayList<>();
        Path outDir = null;
        boolean quiet = false;
        int jobs = 1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--out-dir") && i + 1 < args.length) {
                outDir = Path.of(args[++i]);
            } else if (a.equals("--quiet-errors")) {
                quiet = true;
            } else if ((a.equals("--jobs") || a.equals("-j")) && i + 1 < args.length) {
                try {
                    jobs = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    jobs = 0;
                }
                if (jobs < 1) {
                    out.println("jptxas-batch: --jobs needs a positive number, not '" + args[i] + "'");
                    return 1;
                }
            } else if (a.endsWith(".ptx") && !a.startsWith("-")) {
                inputs.add(a);
            } else {
                options.add(a);
            }
        }
        if (inputs.isEmpty()) {
            out.println("usage: jptxas-batch [ptxas options] [--out-dir DIR] [--jobs N] a.ptx b.ptx ...");
            return 1;
        }
        boolean temporary = outDir == null;
        Path dir = temporary ? Files.createTempDirectory("jptxas-batch") : Files.createDirectories(outDir);
        long start = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        // one discovery of the backends for the whole batch, as the compile server keeps them: a fresh registry per
        // input loaded every backend's SASS, latency and matcher tables again for each file
        Registries registries = Registries.shared();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, inputs.size()), r -> {
            Thread t = new Thread(r, "jptxas-batch");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                String input = inputs.get(i);
                Path cubin = dir.resolve(i + "-" + Path.of(input).getFileName() + ".cubin");
                futures.add(pool.submit(() -> compile(options, input, cubin, registries)));
            }
            for (Future<Outcome> f : futures) {
                try {
                    outcomes.add(f.get());
                } catch (ExecutionException e) {
                    outcomes.add(new Outcome(255, "internal error: " + e.getCause()));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < inputs.size(); i++) {
            Outcome o = outcomes.get(i);
            if (o.rc() == 0) {
                ok++;
            } else {
                failed++;
                if (!quiet) {
                    String first = o.err().lines().findFirst().orElse("exit " + o.rc());
                    out.println("jptxas-batch: " + inputs.get(i) + ": " + first);
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println(String.format(Locale.ROOT, "jptxas-batch: %d inputs, %d compiled, %d failed, %.2f s in one process%s",
                inputs.size(), ok, failed, seconds, jobs > 1 ? " (" + jobs + " jobs)" : ""));
        if (temporary) {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
        return failed == 0 ? 0 : 1;
    }

    /** Compiles one input as {@code jptxas [options] input -o cubin} would. */
    private static Outcome compile(List<String> options, String input, Path cubin, Registries registries) {
        List<String> argv = new ArrayList<>(options);
        argv.add(input);
        argv.add("-o");
        argv.add(cubin.toString());
        StringWriter errText = new StringWriter();
        PrintWriter err = new PrintWriter(errText);
        int rc;
        try {
            rc = new JptxasCommand(new PrintWriter(new StringWriter()), err, System.getenv(),
                    System.getProperty("jptxas.home"), Path.of(""), registries).run(argv.toArray(String[]::new));
        } catch (RuntimeException | StackOverflowError e) {
            err.println("internal error: " + e);
            rc = 255;
        }
        err.flush();
        return new Outcome(rc, errText.toString());
    }
}
