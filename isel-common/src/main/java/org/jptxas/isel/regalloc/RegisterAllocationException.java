package org.jptxas.isel.regalloc;

/** Allocation is impossible within the limits (too many values that cannot be spilled live at once). */
public final class RegisterAllocationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RegisterAllocationException(String message) {
        super(message);
    }
}
