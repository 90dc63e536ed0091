package org.jptxas.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Process entry point of {@code jptxas-run}. */
public final class JptxasRunMain {
    private JptxasRunMain() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(new JptxasRunCommand(out, err, Path.of("")).run(args));
    }
}
