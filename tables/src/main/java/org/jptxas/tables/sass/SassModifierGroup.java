package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One modifier of an instruction class as an enum: the instruction bits that hold it and the printed name of each
 * value ({@code ""} for the value nvdisasm prints no token for). Example: FSETP's comparison, bits {@code 79:76},
 * {@code {"F": "0x0", "LT": "0x1", ...}}.
 *
 * <p>An operand modifier (negation, absolute value, predicate inversion, half-word swizzle) names its operand:
 * {@code operand} is its index in print order (guard excluded) and {@code side} says whether the value prints before
 * the operand ({@code "prefix"}: {@code -}, {@code !}, {@code ~}) or after it ({@code "suffix"}: {@code .H0_H0}).
 * Mnemonic modifiers have side {@code "mnemonic"} and operand -1; {@code "hint"} is a mnemonic modifier read from
 * each word instead of composed ({@link SassModifierClass#lazy()}).
 *
 * @param bits the field's bit positions as in {@link SassSlotData} ({@code hi:lo[,hi:lo...]})
 * @param values printed name to value (hex), in value order; a mnemonic modifier's name may be several tokens
 *     ({@code STRONG.GPU}: LD's memory order)
 * @param operand the decorated operand, or -1 for a mnemonic modifier
 * @param side {@code "mnemonic"}, {@code "hint"}, {@code "prefix"} or {@code "suffix"}
 */
public record SassModifierGroup(String bits, Map<String, String> values, int operand, String side) {
    public SassModifierGroup(String bits, Map<String, String> values) {
        this(bits, values, -1, "mnemonic");
    }

    @JsonCreator
    public SassModifierGroup(@JsonProperty(value = "bits", required = true) String bits,
                             @JsonProperty(value = "values", required = true) Map<String, String> values,
                             @JsonProperty(value = "operand", required = true) int operand,
                             @JsonProperty(value = "side", required = true) String side) {
        boolean token = side.equals("mnemonic") || side.equals("hint");
        if (token ? operand != -1 : !(side.equals("prefix") || side.equals("suffix")) || operand < 0) {
            throw new IllegalArgumentException("modifier at " + bits + ": side must be mnemonic or hint (operand -1),"
                    + " prefix or suffix (operand >= 0), not " + side + " with operand " + operand);
        }
        if (bits.isEmpty() || !bits.chars().allMatch(c -> c == ':' || c == ',' || (c >= '0' && c <= '9'))) {
            throw new IllegalArgumentException("bad bit ranges '" + bits + "' (want hi:lo[,hi:lo...])");
        }
        if (values.size() < 2) {
            throw new IllegalArgumentException("modifier at " + bits + " needs at least two values, has " + values);
        }
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!e.getValue().startsWith("0x") || !seen.add(Long.parseLong(e.getValue().substring(2), 16))) {
                throw new IllegalArgumentException("modifier at " + bits + ": bad or repeated value '" + e.getValue()
                        + "' for '" + e.getKey() + "'");
            }
            if (!e.getKey().matches(token ? "[A-Za-z0-9_]*|[A-Za-z0-9_]+([.][A-Za-z0-9_]+)+" : "[-!~]?|[.][A-Za-z0-9_]+")) {
                throw new IllegalArgumentException("modifier at " + bits + ": bad name '" + e.getKey() + "'");
            }
        }
        this.bits = bits;
        this.values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.operand = operand;
        this.side = side;
    }
}
