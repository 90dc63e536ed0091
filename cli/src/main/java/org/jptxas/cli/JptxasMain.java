package org.jptxas.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Process entry point of {@code jptxas}. */
public final class JptxasMain {
    private JptxasMain() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int rc = new JptxasCommand(out, err, System.getenv(), System.getProperty("jptxas.home"), Path.of(""))
                .run(args);
        System.exit(rc);
    }
}
