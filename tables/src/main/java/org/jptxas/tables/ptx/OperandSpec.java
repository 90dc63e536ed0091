package org.jptxas.tables.ptx;

import java.util.List;
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
 * @param paired whether the operand is joined to the previous one by {@code |} in PTX ({@code setp ... p|q})
 * @param presentWith when not empty, the optional operand is present exactly when this modifier is written (the
 *     cache-policy operand of {@code .L2::cache_hint})
 * @param values the immediate values allowed, empty = any
 * @param multipleOf an immediate must be a multiple of this, 0 = any; for a barrier's thread count it is 32 with
 *     {@code warpMultiple} set, which ptxas words differently
 * @param warpMultiple whether {@code multipleOf} is a barrier's warp-size rule
 * @param min the smallest immediate allowed when {@code max} is not 0
 * @param max the largest immediate allowed, 0 = no range
 * @param vectorLength the exact length of a {@link OperandKind#VECTOR} operand, 0 = any
 * @param shapeDivisor when not 0, the vector's length is the N of the instruction's {@code .mXnNkK} shape modifier
 *     divided by this (wgmma's accumulator fragment)
 * @param slotLike whether a register for the fixed type is checked as one for an instruction type would be: ptxas
 *     takes a .f16x2 register for cvt.pack's 32-bit result and any 32-bit register for movmatrix's operands
 */
public record OperandSpec(Set<OperandKind> kinds, char typeSlot, PtxType fixedType, boolean doubleWidth,
        boolean widening, boolean optional, boolean paired, String presentWith, List<Long> values,
        long multipleOf, boolean warpMultiple, long min, long max, int vectorLength, int shapeDivisor, boolean slotLike) {
    public OperandSpec {
        values = List.copyOf(values);
        Objects.requireNonNull(presentWith, "presentWith");
        kinds = Set.copyOf(Objects.requireNonNull(kinds, "kinds"));
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("an operand spec needs at least one shape");
        }
        if (typeSlot != 0 && fixedType != null) {
            throw new IllegalArgumentException("an operand has either a type slot or a fixed type");
        }
    }
}
