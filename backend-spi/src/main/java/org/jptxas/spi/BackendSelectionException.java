package org.jptxas.spi;

/** No backend, or more than one, serves the requested target. The message is meant for the user as it is. */
public final class BackendSelectionException extends Exception {
    private static final long serialVersionUID = 1L;

    public BackendSelectionException(String message) {
        super(message);
    }
}
