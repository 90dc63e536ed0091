package org.jptxas.simulator.exec;

/** A launch that cannot start: unknown entry, parameters that do not match the kernel, an unreadable input file. */
public final class LaunchException extends Exception {
    private static final long serialVersionUID = 1L;

    public LaunchException(String message) {
        super(message);
    }

    public LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
