package org.jptxas.simulator.ptx;

/** An invalid execution detected by an instruction (reported as a fault with the thread and the instruction). */
final class InterpreterError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InterpreterError(String message) {
        super(message, null, false, false);
    }
}
