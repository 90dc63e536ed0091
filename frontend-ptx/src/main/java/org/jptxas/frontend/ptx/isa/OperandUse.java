package org.jptxas.frontend.ptx.isa;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One operand of an instruction, as much as the legality checks need to know about it.
 *
 * @param shape the syntactic shape
 * @param declaredType the declared PTX type without the dot ({@code "f32"}, {@code "b64"}, {@code "pred"}) of a
 *     register or variable operand (for a vector: of its elements), or {@code null} when the operand has none
 *     (immediates, labels, addresses, ...); for an {@link OperandShape#IMMEDIATE_FLOAT} it may be {@code "f32"} (the
 *     {@code 0f} form) or {@code "f64"} (the {@code 0d} and decimal forms)
 * @param vectorLength the number of elements of a {@link OperandShape#VECTOR} operand, 0 otherwise
 * @param immediateValue the value of an {@link OperandShape#IMMEDIATE_INT} operand when the parser knows it (some
 *     instructions restrict it: cp.async sizes, barrier thread counts), empty otherwise
 */
public record OperandUse(OperandShape shape, String declaredType, int vectorLength, OptionalLong immediateValue) {
    public OperandUse {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(immediateValue, "immediateValue");
        if (vectorLength < 0) {
            throw new IllegalArgumentException("negative vector length " + vectorLength);
        }
    }

    public OperandUse(OperandShape shape, String declaredType, int vectorLength) {
        this(shape, declaredType, vectorLength, OptionalLong.empty());
    }

    /** A scalar register of the given type. */
    public static OperandUse register(String type) {
        return new OperandUse(OperandShape.REGISTER, type, 0);
    }

    /** An operand of a shape that has no declared type (immediate, address, label, ...). */
    public static OperandUse of(OperandShape shape) {
        return new OperandUse(shape, null, 0);
    }

    /** An integer immediate of known value. */
    public static OperandUse immediate(long value) {
        return new OperandUse(OperandShape.IMMEDIATE_INT, null, 0, OptionalLong.of(value));
    }
}
