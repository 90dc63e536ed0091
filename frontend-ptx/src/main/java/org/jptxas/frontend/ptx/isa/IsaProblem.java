package org.jptxas.frontend.ptx.isa;

import java.util.Objects;

/**
 * One reason why an instruction is not legal.
 *
 * @param message ptxas's wording where ptxas has one, without the {@code "file, line N; error   :"} prefix
 * @param operandIndex the index of the offending operand, or -1 when the problem is not about one operand
 */
public record IsaProblem(String message, int operandIndex) {
    public IsaProblem {
        Objects.requireNonNull(message, "message");
        if (operandIndex < -1) {
            throw new IllegalArgumentException("operand index " + operandIndex);
        }
    }
}
