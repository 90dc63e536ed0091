package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** Runs {@link JptxasCommand} in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {
    static CliRun run(Path workDir, Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasCommand(new PrintWriter(out), new PrintWriter(err), env, null, workDir).run(args);
        return new CliRun(rc, out.toString(), err.toString());
    }

    static CliRun run(Path workDir, String... args) {
        return run(workDir, Map.of(), args);
    }
}
