package org.jptxas.isel.codegen;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;

/** A rewrite of one function's Ori in place (an optimisation, or the backend's legalisation). */
public interface OriPass {
    /** The name {@code --dump-ir=NAME} selects. */
    String name();

    void run(OriFunction function, CodegenContext context) throws CompilationException;

    /** A pass from a name and a body. */
    static OriPass of(String name, Body body) {
        return new OriPass() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void run(OriFunction function, CodegenContext context) throws CompilationException {
                body.run(function, context);
            }
        };
    }

    @FunctionalInterface
    interface Body {
        void run(OriFunction function, CodegenContext context) throws CompilationException;
    }
}
