package org.jptxas.simulator.ptx;

import org.jptxas.simulator.exec.Fault;

/** Unwinds the interpreter to report a fault; carries no stack trace. */
final class FaultException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Fault fault;

    FaultException(Fault fault) {
        super(fault.describe(), null, false, false);
        this.fault = fault;
    }
}
