package org.jptxas.tables.ptx;

import java.util.List;

/**
 * Modifiers of one list that cannot be written together with modifiers of another, although each is legal on its
 * own ({@code st.local.L2::cache_hint}, {@code ld.global.nc.cg.L1::evict_unchanged}); or, with {@code requires},
 * modifiers that are legal only together with one of the others ({@code min.abs} needs {@code .xorsign});
 * {@code namesInstruction} when ptxas's message for it ends with the instruction's name.
 */
public record Exclusion(List<String> words, List<String> against, boolean requires, boolean namesInstruction) {
    public Exclusion {
        words = List.copyOf(words);
        against = List.copyOf(against);
        if (words.isEmpty() || against.isEmpty()) {
            throw new IllegalArgumentException("an exclusion needs words on both sides");
        }
    }
}
