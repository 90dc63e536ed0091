package org.jptxas.isel.codegen;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;

/** The register-allocation stage: makes every register of a function physical, in place. */
@FunctionalInterface
public interface RegisterAllocator {
    /**
     * What allocation produced.
     *
     * @param registers the register count to report (REGCOUNT); 0 to derive it from the code
     * @param frameBytes the local frame: the function's own local memory plus spill slots
     */
    record Result(int registers, long frameBytes, long spillStoreBytes, long spillLoadBytes) {}

    Result allocate(OriFunction function, CodegenContext context) throws CompilationException;
}
