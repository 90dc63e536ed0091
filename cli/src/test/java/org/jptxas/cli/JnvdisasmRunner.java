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

    /**
     * {@code jnvdisasm <args>}'s standard output alone, whatever it exits with (what it cannot decode shows as
     * UNKNOWN in the listing): the side the nvdisasm comparisons diff.
     */
    public static String output(String... args) {
        StringWriter out = new StringWriter();
        JnvdisasmMain.run(args, new PrintWriter(out), new PrintWriter(new StringWriter()));
        return out.toString();
    }

    public static String listing(Path cubin) {
        return run("-c", cubin.toString());
    }

    /** The first line where nvdisasm's listing {@code a} and jnvdisasm's {@code b} differ, both shown. */
    static String firstDifference(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "";
            String r = i < y.length ? y[i] : "";
            if (!l.equals(r)) {
                return "line " + (i + 1) + ": nvdisasm '" + l.strip() + "', jnvdisasm '" + r.strip() + "'";
            }
        }
        return "?";
    }
}
