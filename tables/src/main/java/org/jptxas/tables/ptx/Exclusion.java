package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Objects;

/**
 * Modifiers of one list that cannot be written together with modifiers of another, although each is legal on its
 * own ({@code st.local.L2::cache_hint}, {@code ld.global.nc.cg.L1::evict_unchanged}); or, with {@code requires},
 * modifiers that are legal only together with one of the others ({@code min.abs} needs {@code .xorsign});
 * {@code namesInstruction} when ptxas's message for it ends with the instruction's name; {@code wording} when ptxas
 * words the conflict otherwise than as two modifiers that cannot go together.
 */
public record Exclusion(List<String> words, List<String> against, boolean requires, boolean namesInstruction,
        Wording wording, String feature) {
    /** How ptxas words a written word that conflicts with another. */
    public enum Wording {
        /** "Modifier '.a' cannot be combined with modifier '.b'" (or "cannot be applied to '.b' space"). */
        CONFLICT,
        /** The word is illegal on the instruction when the other is written: "Illegal modifier '.a' ...". */
        ILLEGAL,
        /** The other is a state space the feature of the word does not reach: "State space incorrect for feature". */
        FEATURE_SPACE
    }

    public Exclusion {
        words = List.copyOf(words);
        against = List.copyOf(against);
        Objects.requireNonNull(wording, "wording");
        Objects.requireNonNull(feature, "feature");
        if (words.isEmpty() || against.isEmpty()) {
            throw new IllegalArgumentException("an exclusion needs words on both sides");
        }
    }

    public Exclusion(List<String> words, List<String> against, boolean requires, boolean namesInstruction) {
        this(words, against, requires, namesInstruction, Wording.CONFLICT, "");
    }
}
