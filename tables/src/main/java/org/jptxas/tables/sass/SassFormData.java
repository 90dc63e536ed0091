package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.OptBoolean;
import org.jptxas.tables.TableLoader;
import java.util.List;

/**
 * One encoding form (see {@link SassFormTable}).
 *
 * @param mnemonic the printed mnemonic with its modifiers, e.g. {@code "IMAD.WIDE.U32"} (informational; the text is
 *     in {@code pieces})
 * @param key the 13-bit dispatch key: instruction bits [11:0], plus bit 91 as bit 12
 * @param pieces the literal text around the slots: {@code slots.size() + 1} strings, joined with the slot texts
 * @param mask 32 hex digits (bit 127 first): the bits this form fixes
 * @param bits 32 hex digits: the value of the fixed bits
 * @param slots the operand slots in print order
 * @param exclude field-value combinations this form does not print (nvdisasm prints an alias or hides a default
 *     operand for them), each {@code "slot=0xvalue&slot=0xvalue"}; decoding then tries the next form
 * @param decodeOnly the decoder reads words by this form but the assembler never writes it (optional, written only
 *     when true): a second reading of a text another form writes, such as IADD3's PT first carry-out, which nvdisasm
 *     hides as it hides a PT second one, so that the text names no slot
 */
public record SassFormData(String mnemonic, int key, List<String> pieces, String mask, String bits,
                           List<SassSlotData> slots, List<String> exclude,
                           @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean decodeOnly) {
    /** A form both the decoder and the assembler use. */
    public SassFormData(String mnemonic, int key, List<String> pieces, String mask, String bits,
                        List<SassSlotData> slots, List<String> exclude) {
        this(mnemonic, key, pieces, mask, bits, slots, exclude, false);
    }

    @JsonCreator
    public SassFormData(@JsonProperty(value = "mnemonic", required = true) String mnemonic,
                        @JsonProperty(value = "key", required = true) int key,
                        @JsonProperty(value = "pieces", required = true) List<String> pieces,
                        @JsonProperty(value = "mask", required = true) String mask,
                        @JsonProperty(value = "bits", required = true) String bits,
                        @JsonProperty(value = "slots", required = true) List<SassSlotData> slots,
                        @JsonProperty(value = "exclude", required = true) List<String> exclude,
                        @JacksonInject(value = TableLoader.ABSENT_IS_FALSE, useInput = OptBoolean.TRUE)
                        @JsonProperty("decodeOnly") boolean decodeOnly) {
        if (key < 0 || key >= 1 << 13) {
            throw new IllegalArgumentException("key must be a 13-bit value, not " + key);
        }
        if (pieces.size() != slots.size() + 1) {
            throw new IllegalArgumentException("form '" + mnemonic + "' needs " + (slots.size() + 1)
                    + " pieces for " + slots.size() + " slots, has " + pieces.size());
        }
        checkHex128("mask", mask);
        checkHex128("bits", bits);
        this.mnemonic = mnemonic;
        this.key = key;
        this.pieces = List.copyOf(pieces);
        this.mask = mask;
        this.bits = bits;
        this.slots = List.copyOf(slots);
        this.exclude = List.copyOf(exclude);
        this.decodeOnly = decodeOnly;
        for (String ex : this.exclude) {
            for (String term : ex.split("&")) {
                String[] kv = term.split("=");
                if (kv.length != 2 || !kv[1].startsWith("0x")) {
                    throw new IllegalArgumentException("bad exclusion '" + ex + "' (want slot=0xvalue&...)");
                }
                int slot = Integer.parseInt(kv[0]);
                if (slot < 0 || slot >= slots.size() || slots.get(slot).isLiteral()) {
                    throw new IllegalArgumentException("exclusion '" + ex + "' names slot " + slot + ", not a field");
                }
                Long.parseUnsignedLong(kv[1].substring(2), 16);
            }
        }
    }

    private static void checkHex128(String name, String value) {
        if (value.length() != 32 || !value.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException(name + " must be 32 hex digits, not '" + value + "'");
        }
    }
}
