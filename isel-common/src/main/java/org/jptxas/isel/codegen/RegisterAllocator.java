package org.jptxas.isel.codegen;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;

/** Makes every register of a function physical, in place (spilling to local memory when it must). */
@FunctionalInterface
public interface RegisterAllocator {
    /**
     * What allocation produced.
     *
     * @param spillBytes local-memory bytes added for spills (part of the stack frame)
     */
    record Result(int spillBytes, int spillStoreBytes, int spillLoadBytes) {
        public static final Result NONE = new Result(0, 0, 0);
    }

    Result allocate(OriFunction function, CodegenContext context) throws CompilationException;
}
