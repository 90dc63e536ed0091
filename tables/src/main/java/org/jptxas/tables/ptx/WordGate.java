package org.jptxas.tables.ptx;

import java.util.Objects;

/**
 * A modifier or type word that ptxas gates on every instruction that writes it, whatever the form: {@code .weak}
 * needs sm_70 ("Feature '.weak' requires .target sm_70 or higher"), {@code .shared::cluster} sm_90.
 *
 * @param feature the name in ptxas's message ("::cluster", ".cluster scope", ".weak")
 * @param minSm the lowest SM number that has the word
 * @param placement where ptxas names it among the instruction's own problems
 */
public record WordGate(String feature, int minSm, Placement placement) {
    /** Where ptxas reports a word gate. */
    public enum Placement {
        /** before the instruction's own problems: ptxas checks the word while it reads the name */
        FIRST,
        /** after the instruction's own problems */
        AFTER,
        /** only on an instruction that is otherwise legal */
        WHEN_LEGAL
    }

    public WordGate {
        Objects.requireNonNull(feature, "feature");
        Objects.requireNonNull(placement, "placement");
        if (minSm <= 0) {
            throw new IllegalArgumentException("a word gate needs a target");
        }
    }

    /**
     * Reads one gate of {@code word}: {@code sm=70}, then optionally {@code feature=::cluster} ({@code _} a space;
     * default the word with a dot) and {@code first} or {@code whenlegal} (default: after).
     */
    static WordGate parse(String word, String text) {
        String feature = "." + word;
        int sm = 0;
        Placement placement = Placement.AFTER;
        for (String item : text.trim().split("\\s+")) {
            if (item.startsWith("sm=")) {
                sm = Integer.parseInt(item.substring(3));
            } else if (item.startsWith("feature=")) {
                feature = item.substring(8).replace('_', ' ');
            } else if (item.equals("first")) {
                placement = Placement.FIRST;
            } else if (item.equals("whenlegal")) {
                placement = Placement.WHEN_LEGAL;
            } else {
                throw new IllegalArgumentException("cannot read word gate item '" + item + "'");
            }
        }
        return new WordGate(feature, sm, placement);
    }
}
