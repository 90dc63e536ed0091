package org.jptxas.simulator.ptx;

/** A PTX module the interpreter cannot load: a syntax error, an undefined name, an unsupported declaration. */
public final class ProgramException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProgramException(String message) {
        super(message);
    }
}
