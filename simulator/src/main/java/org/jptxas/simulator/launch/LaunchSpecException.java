package org.jptxas.simulator.launch;

/** A launch spec that cannot be used; the message names the file and the offending field. */
public final class LaunchSpecException extends Exception {
    private static final long serialVersionUID = 1L;

    public LaunchSpecException(String message) {
        super(message);
    }

    public LaunchSpecException(String message, Throwable cause) {
        super(message, cause);
    }
}
