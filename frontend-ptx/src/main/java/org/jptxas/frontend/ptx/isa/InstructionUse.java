package org.jptxas.frontend.ptx.isa;

import java.util.List;
import java.util.Objects;

/**
 * One instruction as written in the source, reduced to what the legality checks need.
 *
 * @param opcode the base name as the PTX ISA manual spells it ({@code "add"}, {@code "cp.async.bulk.tensor"}); see
 *     {@link PtxIsa#split(List)} for finding it among the dotted words of the source
 * @param modifiers the remaining dotted words in source order, without the dots ({@code ["global","v4","f32"]})
 * @param operands the operands in source order (a guard predicate is not an operand)
 */
public record InstructionUse(String opcode, List<String> modifiers, List<OperandUse> operands) {
    public InstructionUse {
        Objects.requireNonNull(opcode, "opcode");
        modifiers = List.copyOf(modifiers);
        operands = List.copyOf(operands);
    }
}
