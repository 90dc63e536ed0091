package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Set;

/**
 * One operand slot of a form, written in the table as one string: either a field {@code "KIND hi:lo[,hi:lo...]"}
 * (plus {@code " >>2"} for a label or number in 4-byte units), e.g. {@code "GPR 23:16"}, {@code "LABEL 63:34,81:64 >>2"},
 * {@code "HEX 80:34 >>2"} (an absolute call target), optionally followed by {@code " sx=hi:lo[,hi:lo...]"}: bits the
 * encoder fills with the value's sign and the decoder ignores ({@code "LABEL 63:34 >>2 sx=86:64"}: BSSY, whose offset
 * nvdisasm reads from [63:34] alone while ptxas sign-extends it over [86:64]), or a
 * literal {@code "=RZ"}: a fixed operand text implied by the form's fixed bits.
 *
 * @param kind how the field's value prints ({@link #KINDS}); {@code null} for a literal
 * @param bits the field's bit positions, least significant value bit first, as inclusive ranges {@code hi:lo}
 *     separated by commas; {@code null} for a literal
 * @param shift for {@code LABEL}, {@code HEX} and {@code SHEX}: the printed offset or number is the field value
 *     shifted left by this (code addresses in 4-byte units); 0 otherwise
 * @param literal the slot's fixed text, or {@code null} for a field
 * @param signCopy bit ranges (as {@code bits}) written with copies of the value's sign bit and not read, or
 *     {@code null}
 */
public record SassSlotData(String kind, String bits, int shift, String literal, String signCopy) {
    /** The slot kinds the engine knows (org.jptxas.sass.SlotKind). */
    public static final Set<String> KINDS = Set.of("GPR", "UGPR", "PRED", "UPRED", "BAR", "SB", "HEX", "SHEX",
            "SHEX_PLUS", "F32", "F64HI", "F16", "LABEL");

    public SassSlotData {
        if (literal == null) {
            if (kind == null || !KINDS.contains(kind)) {
                throw new IllegalArgumentException("unknown slot kind '" + kind + "' (known: " + KINDS + ")");
            }
            if (bits == null || bits.isEmpty() || !bits.chars().allMatch(c -> c == ':' || c == ',' || (c >= '0' && c <= '9'))) {
                throw new IllegalArgumentException("bad bit ranges '" + bits + "' (want hi:lo[,hi:lo...])");
            }
            if (shift < 0 || shift > 4) {
                throw new IllegalArgumentException("bad shift " + shift);
            }
            if (signCopy != null && (signCopy.isEmpty()
                    || !signCopy.chars().allMatch(c -> c == ':' || c == ',' || (c >= '0' && c <= '9')))) {
                throw new IllegalArgumentException("bad sign-copy bit ranges '" + signCopy + "' (want hi:lo[,hi:lo...])");
            }
        } else if (kind != null || bits != null || signCopy != null) {
            throw new IllegalArgumentException("a slot is a field or a literal, not both");
        }
    }

    public static SassSlotData field(String kind, String bits, int shift) {
        return new SassSlotData(kind, bits, shift, null, null);
    }

    /** A field whose value's sign is also written into {@code signCopy} (see the class comment). */
    public static SassSlotData field(String kind, String bits, int shift, String signCopy) {
        return new SassSlotData(kind, bits, shift, null, signCopy);
    }

    public static SassSlotData literal(String text) {
        return new SassSlotData(null, null, 0, text, null);
    }

    public boolean isLiteral() {
        return literal != null;
    }

    @JsonCreator
    public static SassSlotData parse(String text) {
        if (text.startsWith("=")) {
            return literal(text.substring(1));
        }
        String[] parts = text.split(" ");
        if (parts.length < 2 || parts.length > 4) {
            throw new IllegalArgumentException("bad slot '" + text + "' (want 'KIND hi:lo' or '=literal')");
        }
        int shift = 0;
        String signCopy = null;
        for (int i = 2; i < parts.length; i++) {
            if (parts[i].startsWith(">>") && i == 2) {
                try {
                    shift = Integer.parseInt(parts[i].substring(2));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad shift in slot '" + text + "'");
                }
            } else if (parts[i].startsWith("sx=") && i == parts.length - 1) {
                signCopy = parts[i].substring(3);
            } else {
                throw new IllegalArgumentException("bad slot '" + text + "' (want 'KIND hi:lo [>>N] [sx=hi:lo]')");
            }
        }
        return field(parts[0], parts[1], shift, signCopy);
    }

    @JsonValue
    public String text() {
        if (literal != null) {
            return "=" + literal;
        }
        return kind + " " + bits + (shift != 0 ? " >>" + shift : "") + (signCopy != null ? " sx=" + signCopy : "");
    }

    @Override
    public String toString() {
        return text();
    }
}
