package org.jptxas.ori.diag;

/** Diagnostic severities, printed with ptxas's padding ({@code error   :}, {@code warning :}). */
public enum Severity {
    INFO("info    "), WARNING("warning "), ERROR("error   "), FATAL("fatal   ");

    private final String padded;

    Severity(String padded) {
        this.padded = padded;
    }

    /** The severity word padded as ptxas prints it before the colon. */
    public String padded() {
        return padded;
    }
}
