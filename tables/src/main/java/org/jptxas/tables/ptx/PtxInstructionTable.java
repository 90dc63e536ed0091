package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * JSON shape of {@code ptx-instructions.json}: shared modifier groups and type sets, words gated on every
 * instruction ({@link WordGate}, per word its gates in order), and per instruction its forms written in the small
 * form language that {@link FormParser} reads (documented in the table's {@code note}).
 */
public record PtxInstructionTable(String note, Map<String, GroupEntry> groups, Map<String, String> typeSets,
        Map<String, String> targetSets, Map<String, List<String>> wordGates, Map<String, List<String>> instructions) {
    public static final String FILE = "ptx-instructions.json";

    /** A named modifier group: its kind and its words, space separated, without dots. */
    public record GroupEntry(ModifierKind kind, String words) {
        public GroupEntry {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(words, "words");
            if (words.isBlank()) {
                throw new IllegalArgumentException("a group needs at least one word");
            }
        }
    }

    public PtxInstructionTable {
        Objects.requireNonNull(note, "note");
        groups = Map.copyOf(groups);
        typeSets = Map.copyOf(typeSets);
        targetSets = Map.copyOf(targetSets);
        wordGates = Map.copyOf(wordGates);
        instructions = Map.copyOf(instructions);
    }
}
