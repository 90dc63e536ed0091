package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.target.Target;

/**
 * Gives every instruction of a laid-out function its control bits (stall, yield, scoreboards, waits, reuse), and
 * may reorder instructions inside a block. Labels stay on the instruction that carries them; branches and the
 * instructions with labels bound the blocks. Implementations: {@link ConservativeControl} (always correct, slow
 * code) and the scheduler module's latency-model pass, which the backends wire in. The scheduler is one pass with two
 * hooks, as in ptxas: {@link #beforeAllocation} reorders the Ori of each block before register allocation, and
 * {@link #apply(List, CodegenContext)} reorders and sets the control bits of the allocated code.
 */
@FunctionalInterface
public interface ControlPass {
    /** The same instructions (possibly reordered within blocks), each with its control bits set. */
    List<CodeLine> apply(List<CodeLine> code, Target target);

    /** Control bits for the function {@code cx} compiles; the options decide whether instructions may move. */
    default List<CodeLine> apply(List<CodeLine> code, CodegenContext cx) {
        return apply(code, cx.target());
    }

    /** Pre-allocation scheduling of the legalised Ori (in place, within blocks); none by default. */
    default void beforeAllocation(OriFunction function, CodegenContext cx) throws CompilationException {
    }
}
