package org.jptxas.tables.ptx;

import java.util.Objects;
import java.util.Set;

/**
 * What one operand position of a form accepts.
 *
 * @param kinds the shapes accepted
 * @param typeSlot the type slot (a capital letter) whose written type the operand must be compatible with, or
 *     {@code 0} when the type is fixed or free
 * @param fixedType the operand's fixed type when {@code typeSlot} is 0; {@code null} = any type
 * @param doubleWidth whether the operand is twice as wide as its type slot ({@code mul.wide}'s result)
 * @param widening whether a register wider than the type is accepted (ld/st/cvt's relaxed rule)
 * @param optional whether this and all later operands may be left out
 */
public record OperandSpec(Set<OperandKind> kinds, char typeSlot, PtxType fixedType, boolean doubleWidth,
        boolean widening, boolean optional) {
    public OperandSpec {
        kinds = Set.copyOf(Objects.requireNonNull(kinds, "kinds"));
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("an operand spec needs at least one shape");
        }
        if (typeSlot != 0 && fixedType != null) {
            throw new IllegalArgumentException("an operand has either a type slot or a fixed type");
        }
    }
}
