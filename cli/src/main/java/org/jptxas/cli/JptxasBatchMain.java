package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code jptxas-batch [ptxas options] a.ptx b.ptx ...}: compiles each input separately, in one process, with
 * exactly the path {@code jptxas} takes (the same command object per input), each to its own cubin. ptxas merges
 * several inputs into one cubin, which fails on the many corpus files that define the same names; this is the one
 * invocation over a whole corpus that issue 7's compile-time report times against ptxas on the same files.
 * Options: {@code --out-dir DIR} (default: a temporary folder, deleted), {@code --quiet-errors}.
 */
public final class JptxasBatchMain {
    private JptxasBatchMain() {}

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        System.exit(run(args, out));
    }

    static int run(String[] args, PrintWriter out) throws Exception {
        List<String> options = new ArrayList<>();
        List<String> inputs = new ArrayList<>();
        Path outDir = null;
        boolean quiet = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--out-dir") && i + 1 < args.length) {
                outDir = Path.of(args[++i]);
            } else if (a.equals("--quiet-errors")) {
                quiet = true;
            } else if (a.endsWith(".ptx") && !a.startsWith("-")) {
                inputs.add(a);
            } else {
                options.add(a);
            }
        }
        if (inputs.isEmpty()) {
            out.println("usage: jptxas-batch [ptxas options] [--out-dir DIR] a.ptx b.ptx ...");
            return 1;
        }
        boolean temporary = outDir == null;
        Path dir = temporary ? Files.createTempDirectory("jptxas-batch") : Files.createDirectories(outDir);
        long start = System.nanoTime();
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < inputs.size(); i++) {
            String input = inputs.get(i);
            List<String> argv = new ArrayList<>(options);
            argv.add(input);
            argv.add("-o");
            argv.add(dir.resolve(i + "-" + Path.of(input).getFileName() + ".cubin").toString());
            StringWriter errText = new StringWriter();
            PrintWriter err = new PrintWriter(errText);
            int rc;
            try {
                rc = new JptxasCommand(new PrintWriter(new StringWriter()), err, System.getenv(),
                        System.getProperty("jptxas.home"), Path.of("")).run(argv.toArray(String[]::new));
            } catch (RuntimeException | StackOverflowError e) {
                err.println("internal error: " + e);
                rc = 255;
            }
            err.flush();
            if (rc == 0) {
                ok++;
            } else {
                failed++;
                if (!quiet) {
                    String first = errText.toString().lines().findFirst().orElse("exit " + rc);
                    out.println("jptxas-batch: " + input + ": " + first);
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println(String.format(Locale.ROOT, "jptxas-batch: %d inputs, %d compiled, %d failed, %.2f s in one process",
                inputs.size(), ok, failed, seconds));
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
}
