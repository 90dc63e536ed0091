package org.jptxas.spi;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;

/** Sees a function after every Ori pass ({@code --dump-ir}, {@code --verify-ir}). */
@FunctionalInterface
public interface IrObserver {
    IrObserver NONE = (pass, f) -> { };

    /** Called after pass {@code pass} ("lower" for the input) with the function as it now is. */
    void afterPass(String pass, OriFunction function) throws CompilationException;
}
