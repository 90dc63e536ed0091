package org.jptxas.sass;

/** One operand slot of a {@link SassForm}: a field, or literal text implied by the form's fixed bits. */
public sealed interface SassSlot {
    /** A field: {@code kind} says how it prints, {@code field} where its bits are. */
    record Field(SlotKind kind, BitField field, int shift) implements SassSlot {}

    /** A fixed operand text (its bits are part of the form). */
    record Literal(String text) implements SassSlot {}
}
