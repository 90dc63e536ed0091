package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The independent modifiers of one instruction class (mnemonic + dispatch key): any combination of their values may
 * be composed onto a learned form of the class, except the {@code refused} spellings (combinations nvdisasm rejected
 * or printed otherwise when the probe checked them).
 *
 * @param mnemonic the class's base mnemonic, e.g. {@code "FSETP"}
 * @param key the 13-bit dispatch key (see {@link SassFormData#key()})
 * @param groups the modifiers in print order
 * @param refused composed spellings (the form's text skeleton, operands as {@code {}}) that must not be composed
 *     for this key
 */
public record SassModifierClass(String mnemonic, int key, List<SassModifierGroup> groups, List<String> refused) {
    @JsonCreator
    public SassModifierClass(@JsonProperty(value = "mnemonic", required = true) String mnemonic,
                             @JsonProperty(value = "key", required = true) int key,
                             @JsonProperty(value = "groups", required = true) List<SassModifierGroup> groups,
                             @JsonProperty(value = "refused", required = true) List<String> refused) {
        if (key < 0 || key >= 1 << 13) {
            throw new IllegalArgumentException("key must be a 13-bit value, not " + key);
        }
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("modifier class " + mnemonic + "/" + key + " has no groups");
        }
        this.mnemonic = mnemonic;
        this.key = key;
        this.groups = List.copyOf(groups);
        this.refused = List.copyOf(refused);
    }

    /**
     * Whether the enums' tokens follow all of the mnemonic's fixed tokens, so a form printing none of them
     * ({@code LD.E}) can still have tokens appended ({@code LD.E.U8.STRONG.GPU}); otherwise such a form has no place to
     * insert a token and composes nothing. True for the classes with a multi-token value, the memory orders that
     * {@code tools/sass-probe/memory-modifiers} names: in LD/ST/LDG/STG/ATOM/ATOMG/RED every modifier after the
     * fixed {@code .E} is one of the enums.
     */
    public boolean trailing() {
        if (lazy()) {
            return false;
        }
        for (SassModifierGroup g : groups) {
            if ("mnemonic".equals(g.side()) && g.values().keySet().stream().anyMatch(n -> n.indexOf('.') > 0)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the enums are read from each word as it is decoded instead of composed onto every form (all groups of
     * side {@code "hint"}): hint fields whose values cross every other modifier (LD's eviction priority and L2
     * prefetch size, 6 x 4 values on top of 7 sizes x 16 orders) would compose hundreds of thousands of forms. Their
     * tokens print right after the mnemonic's fixed {@code .E} ({@code HintFields} in sass-codec).
     */
    public boolean lazy() {
        return groups.stream().allMatch(g -> "hint".equals(g.side()));
    }
}
