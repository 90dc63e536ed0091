package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;

/**
 * Instruction selection's last step: a register-allocated function as SASS text lines of the target, in layout
 * order, each block's first line labelled when something branches to it.
 */
@FunctionalInterface
public interface SassEmitter {
    List<CodeLine> emit(OriFunction function, CodegenContext context) throws CompilationException;
}
