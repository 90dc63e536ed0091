package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One operand slot of a form: either a field ({@code kind} and {@code bits}) or a {@code literal} text implied by the
 * form's fixed bits (a value that never varied where the table was derived, so its bits are part of the form).
 *
 * @param kind how the field's value prints, e.g. {@code GPR}, {@code UGPR}, {@code PRED}, {@code HEX}, {@code SHEX},
 *     {@code F32}, {@code LABEL}; {@code null} for a literal
 * @param bits the field's bit positions, least significant value bit first, as inclusive ranges
 *     {@code "hi:lo"} separated by commas (e.g. {@code "23:16"}, or {@code "23:16,81:34"} for a split field);
 *     {@code null} for a literal
 * @param shift for {@code LABEL}: the value is the byte offset shifted right by this many bits; 0 otherwise
 * @param literal the slot's fixed text, or {@code null} for a field
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SassSlotData(String kind, String bits, Integer shift, String literal) {
    @JsonCreator
    public SassSlotData(@JsonProperty("kind") String kind,
                        @JsonProperty("bits") String bits,
                        @JsonProperty("shift") Integer shift,
                        @JsonProperty("literal") String literal) {
        if ((literal == null) == (kind == null || bits == null)) {
            throw new IllegalArgumentException("a slot is either a field (kind and bits) or a literal, not both or neither");
        }
        this.kind = kind;
        this.bits = bits;
        this.shift = shift;
        this.literal = literal;
    }

    public static SassSlotData field(String kind, String bits, int shift) {
        return new SassSlotData(kind, bits, shift == 0 ? null : shift, null);
    }

    public static SassSlotData literal(String text) {
        return new SassSlotData(null, null, null, text);
    }
}
