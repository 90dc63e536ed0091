package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.ori.target.Target;

/**
 * Gives every instruction of a laid-out function its control bits (stall, yield, scoreboards, waits, reuse), and
 * may reorder instructions inside a block. Labels stay on the instruction that carries them; branches and the
 * instructions with labels bound the blocks. Implementations: {@link ConservativeControl} (always correct, slow
 * code) and the scheduler module's latency-model pass, which the backends wire in.
 */
@FunctionalInterface
public interface ControlPass {
    /** The same instructions (possibly reordered within blocks), each with its control bits set. */
    List<CodeLine> apply(List<CodeLine> code, Target target);
}
