package org.jptxas.ori.diag;

import java.util.Objects;

/**
 * A message about the input, positioned where possible. {@link #format(String)} renders it exactly as ptxas does:
 * {@code ptxas k.ptx, line 7; error   : Unknown symbol '%q'} or, without a position, {@code ptxas fatal   : ...}.
 *
 * @param file the input file name as given on the command line; {@code null} when not tied to a file
 * @param line 1-based line number; 0 when unknown
 */
public record Diagnostic(Severity severity, String file, int line, String message) {
    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
    }

    public static Diagnostic error(String file, int line, String message) {
        return new Diagnostic(Severity.ERROR, file, line, message);
    }

    public static Diagnostic warning(String file, int line, String message) {
        return new Diagnostic(Severity.WARNING, file, line, message);
    }

    public static Diagnostic fatal(String message) {
        return new Diagnostic(Severity.FATAL, null, 0, message);
    }

    public static Diagnostic info(String message) {
        return new Diagnostic(Severity.INFO, null, 0, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR || severity == Severity.FATAL;
    }

    /** Renders the diagnostic for a tool named {@code tool} (e.g. {@code jptxas}). */
    public String format(String tool) {
        if (file == null) {
            return tool + " " + severity.padded() + ": " + message;
        }
        return tool + " " + file + (line > 0 ? ", line " + line : "") + "; " + severity.padded() + ": " + message;
    }
}
