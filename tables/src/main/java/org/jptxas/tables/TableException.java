package org.jptxas.tables;

/**
 * A table resource could not be read: it is missing, not well-formed JSON, or does not match its schema.
 * The message always names the file and, where the problem is inside one entry, that entry's JSON path.
 */
public final class TableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String entry;

    public TableException(String file, String entry, String problem, Throwable cause) {
        super(file + (entry.isEmpty() ? "" : ": entry " + entry) + ": " + problem, cause);
        this.file = file;
        this.entry = entry;
    }

    /** The resource name of the table, e.g. {@code ori-opcodes.json}. */
    public String file() {
        return file;
    }

    /** The JSON path of the offending entry (e.g. {@code opcodes[12].group}), or empty when the whole file is at fault. */
    public String entry() {
        return entry;
    }
}
