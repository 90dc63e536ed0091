package org.jptxas.cubin;

/**
 * A cubin that cannot be read: truncated, not a 64-bit little-endian ELF, or with a table pointing outside the file.
 * The message says what is wrong and where (a file offset or a section), in words meant for the user.
 */
public final class CubinFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CubinFormatException(String message) {
        super(message);
    }
}
