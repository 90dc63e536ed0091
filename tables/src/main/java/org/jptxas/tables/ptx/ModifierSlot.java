package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Objects;

/**
 * One modifier position of an instruction form: at most one of {@code words} may be written; a required slot needs
 * exactly one. {@code group} names the shared group the words came from (empty for literal words).
 */
public record ModifierSlot(String group, List<String> words, ModifierKind kind, boolean optional) {
    public ModifierSlot {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(kind, "kind");
        words = List.copyOf(words);
        if (words.isEmpty()) {
            throw new IllegalArgumentException("a modifier slot needs at least one word");
        }
    }

    public boolean accepts(String word) {
        return words.contains(word);
    }
}
