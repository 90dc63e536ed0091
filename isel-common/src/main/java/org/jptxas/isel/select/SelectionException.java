package org.jptxas.isel.select;

/**
 * An internal code-generation error: an instruction no matcher takes, or whose text the target cannot encode. The
 * message names the instruction and its PTX line; the driver reports it as a diagnostic.
 */
public final class SelectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;

    public SelectionException(int line, String message) {
        super(message);
        this.line = line;
    }

    /** The PTX line of the instruction; 0 when unknown. */
    public int line() {
        return line;
    }
}
