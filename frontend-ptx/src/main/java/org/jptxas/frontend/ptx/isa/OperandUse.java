package org.jptxas.frontend.ptx.isa;

/**
 * One operand of an instruction, as much as the legality checks need to know about it.
 *
 * @param shape the syntactic shape
 * @param declaredType the declared PTX type without the dot ({@code "f32"}, {@code "b64"}, {@code "pred"}) of a
 *     register or variable operand (for a vector: of its elements), or {@code null} when the operand has none
 *     (immediates, labels, addresses, ...)
 * @param vectorLength the number of elements of a {@link OperandShape#VECTOR} operand, 0 otherwise
 */
public record OperandUse(OperandShape shape, String declaredType, int vectorLength) {
    public OperandUse {
        java.util.Objects.requireNonNull(shape, "shape");
        if (vectorLength < 0) {
            throw new IllegalArgumentException("negative vector length " + vectorLength);
        }
    }

    /** A scalar register of the given type. */
    public static OperandUse register(String type) {
        return new OperandUse(OperandShape.REGISTER, type, 0);
    }

    /** An operand of a shape that has no declared type (immediate, address, label, ...). */
    public static OperandUse of(OperandShape shape) {
        return new OperandUse(shape, null, 0);
    }
}
