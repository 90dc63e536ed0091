package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** Runs {@link JptxasCommand} in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {
    /**
     * The backends, shared by the tests' compiles as by the compile server's (rediscovered when a plugin folder
     * changes): loading the tables afresh for each of hundreds of compiles dominated some tests' time.
     */
    private static final Registries BACKENDS = Registries.shared();

    static CliRun run(Path workDir, Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasCommand(new PrintWriter(out), new PrintWriter(err), env, null, workDir, BACKENDS).run(args);
        return new CliRun(rc, out.toString(), err.toString());
    }

    static CliRun run(Path workDir, String... args) {
        return run(workDir, Map.of(), args);
    }
}
