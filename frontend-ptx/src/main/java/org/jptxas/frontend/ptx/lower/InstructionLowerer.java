package org.jptxas.frontend.ptx.lower;

import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.ori.diag.CompilationException;

/**
 * Lowers one family of PTX instructions to Ori. The function lowerer picks the lowerer by the instruction's base
 * opcode (as the instruction table splits the name: {@code add}, {@code cp.async}, {@code atom}); each base opcode
 * belongs to exactly one lowerer. Lowerers are stateless.
 */
public interface InstructionLowerer {
    /** The base opcodes this lowerer handles. */
    Set<String> opcodes();

    /**
     * Emits the Ori for {@code insn} through {@code cx}. Forms that are valid PTX but not supported yet throw
     * {@link LoweringContext#unsupported}.
     */
    void lower(Instruction insn, LoweringContext cx) throws CompilationException;
}
