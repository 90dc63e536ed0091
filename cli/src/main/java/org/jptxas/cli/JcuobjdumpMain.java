package org.jptxas.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Process entry point of {@code jcuobjdump}. */
public final class JcuobjdumpMain {
    private JcuobjdumpMain() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(new JcuobjdumpCommand(out, err, Path.of("")).run(args));
    }
}
