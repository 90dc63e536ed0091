package org.jptxas.api;

import java.util.Objects;

/**
 * One diagnostic of a compilation, as ptxas prints it: {@code toString()} gives the line
 * ({@code jptxas k.ptx, line 7; error   : ...}).
 *
 * @param file the input the message is about, or null when it is about the run (options, targets, outputs)
 * @param line the line in {@code file}, or 0
 */
public record Message(Severity severity, String file, int line, String text) {
    public enum Severity { INFO, WARNING, ERROR, FATAL }

    public Message {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(text, "text");
    }

    public boolean isError() {
        return severity == Severity.ERROR || severity == Severity.FATAL;
    }

    @Override
    public String toString() {
        String word = switch (severity) {
            case INFO -> "info    ";
            case WARNING -> "warning ";
            case ERROR -> "error   ";
            case FATAL -> "fatal   ";
        };
        String where = file == null ? "" : " " + file + (line > 0 ? ", line " + line : "") + ";";
        return "jptxas" + where + " " + word + ": " + text;
    }
}
