package org.jptxas.sass;

/** One operand slot of a {@link SassForm}: a field, or literal text implied by the form's fixed bits. */
public sealed interface SassSlot {
    /**
     * A field: {@code kind} says how it prints, {@code field} where its bits are; {@code signCopy} (or null): bits
     * the encoder fills with the value's sign bit and the decoder does not read (ptxas sign-extends BSSY's offset
     * over bits nvdisasm ignores).
     */
    record Field(SlotKind kind, BitField field, int shift, BitField signCopy) implements SassSlot {
        public Field(SlotKind kind, BitField field, int shift) {
            this(kind, field, shift, null);
        }

        /** ORs {@code value} (an unsigned field value that fits) into {@code words}, and its sign into the copies. */
        public void insert(long value, long[] words) {
            field.insert(value, words);
            if (signCopy != null && (value >>> (field.width() - 1) & 1) != 0) {
                signCopy.insert(-1L >>> (64 - signCopy.width()), words);
            }
        }
    }

    /** A fixed operand text (its bits are part of the form). */
    record Literal(String text) implements SassSlot {}
}
