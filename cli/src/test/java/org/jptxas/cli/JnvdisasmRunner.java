package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** bin/jnvdisasm in-process, for tests outside this package. */
public final class JnvdisasmRunner {
    private JnvdisasmRunner() {}

    /** {@code jnvdisasm <args>}: the listing, or an IllegalStateException with what it printed on failure. */
    public static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = JnvdisasmMain.run(args, new PrintWriter(out), new PrintWriter(err));
        if (rc != 0) {
            throw new IllegalStateException("jnvdisasm exited " + rc + ": " + err);
        }
        return out.toString();
    }

    public static String listing(Path cubin) {
        return run("-c", cubin.toString());
    }
}
