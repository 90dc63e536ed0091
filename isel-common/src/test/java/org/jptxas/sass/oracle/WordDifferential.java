package org.jptxas.sass.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;

/**
 * The word-level differential against nvdisasm 12.5 in raw mode: each word is decoded and printed by jptxas and
 * compared with nvdisasm's text; a text both agree on is assembled back (as a listing,
 * {@link SassAssembler#assembleListing}) and must give the word's bits, or bits
 * nvdisasm reads as the same text (hidden cache-policy bits, counted apart). Words nvdisasm refuses, or prints as
 * INVALID or UNKNOWN or with an operand it cannot name ({@code ???255}: RZ where the encoding allows no RZ), are
 * counted apart and never as agreement; jptxas reading one of them is counted too.
 */
public final class WordDifferential {
    private WordDifferential() {}

    /** What went wrong with one word (the {@code detail} names the word and both texts). */
    public enum Failure {
        /** nvdisasm reads the word, jptxas decodes it as UNKNOWN. */
        UNKNOWN,
        /** Both read it, the texts differ. */
        MISPRINTED,
        /** The agreed text does not assemble, or assembles to bits nvdisasm reads otherwise. */
        NOT_REASSEMBLED,
        /** nvdisasm refuses the word or calls it INVALID/UNKNOWN, and jptxas prints an instruction for it. */
        READS_REFUSED
    }

    /** One failing word: its kind, nvdisasm's opcode (or jptxas's, for a refused word) and the evidence. */
    public record Miss(Failure failure, String opcode, String detail) {
        @Override
        public String toString() {
            return failure + " " + opcode + ": " + detail;
        }
    }

    /**
     * The counts of one run. {@code read}: words nvdisasm prints as an instruction; {@code exact}: of those, words
     * jptxas prints as nvdisasm does and assembles back to the same bits; {@code hidden}: back to other bits that
     * nvdisasm reads as the same text; {@code refused} and {@code invalid}: words nvdisasm refuses or names
     * INVALID/UNKNOWN.
     */
    public record Tally(String sm, int words, int read, int exact, int hidden, int refused, int invalid,
                        List<Miss> misses, Map<String, Integer> hiddenByOpcode) {
        /** Misses per failure kind and opcode. */
        public Map<String, Integer> byOpcode() {
            Map<String, Integer> out = new TreeMap<>();
            misses.forEach(m -> out.merge(m.failure() + " " + m.opcode(), 1, Integer::sum));
            return out;
        }

        /** Misses of words nvdisasm reads (the refused words jptxas reads are apart). */
        public long disagreements() {
            return misses.stream().filter(m -> m.failure() != Failure.READS_REFUSED).count();
        }

        public long readsRefused() {
            return misses.size() - disagreements();
        }
    }

    /** Runs the differential of {@code words} ({lo, hi}) decoded by {@code isa}, nvdisasm reading as {@code oracleSm}. */
    public static Tally run(SassIsa isa, String oracleSm, List<long[]> words) {
        RawOracle.Read[] theirs = RawOracle.read(words, oracleSm);
        SassAssembler asm = new SassAssembler(isa);
        List<Miss> misses = new ArrayList<>();
        int read = 0, exact = 0, refused = 0, invalid = 0;
        List<long[]> backs = new ArrayList<>();
        List<Integer> backOf = new ArrayList<>();
        String[] agreed = new String[words.size()];
        for (int i = 0; i < words.size(); i++) {
            long[] w = words.get(i);
            SassInstruction in = isa.decode(w[0], w[1]);
            String ours = normalize(SassPrinter.text(in, theirs[i] == null ? 0 : theirs[i].address(), null));
            String word = SassIsa.hex128(w[0], w[1]);
            String text = theirs[i] == null ? null : normalize(theirs[i].text());
            if (text == null || text.contains("INVALID") || text.contains("UNKNOWN") || text.contains("???")) {
                if (text == null) {
                    refused++;
                } else {
                    invalid++;
                }
                if (in instanceof SassInstruction.Known) {
                    misses.add(new Miss(Failure.READS_REFUSED, opcode(ours), word + ": nvdisasm "
                            + (text == null ? "refuses it" : "'" + text + "'") + ", jptxas '" + ours + "'"));
                }
                continue;
            }
            read++;
            if (!ours.equals(text)) {
                misses.add(new Miss(in instanceof SassInstruction.Unknown ? Failure.UNKNOWN : Failure.MISPRINTED,
                        opcode(text), word + ": nvdisasm '" + text + "', jptxas '" + ours + "'"));
                continue;
            }
            try {
                // nvdisasm's text is a listing: it may hold reuse-flag combinations no learned form spells, which the
                // decoder reads and the listing assembler writes (code generation keeps to the learned ones)
                long[] back = asm.assembleListing(text, Control.fromHi(w[1]), theirs[i].address(), null);
                if (back[0] == w[0] && back[1] == w[1]) {
                    exact++;
                } else {
                    backs.add(back);
                    backOf.add(i);
                    agreed[i] = text;
                }
            } catch (RuntimeException e) {
                // the assembler must refuse text it cannot encode, never throw: a throw is a miss to mend
                misses.add(new Miss(Failure.NOT_REASSEMBLED, opcode(text), "'" + text + "' (" + word + "): "
                        + (e instanceof SassAssembler.AssemblyException ? "" : e.getClass().getSimpleName() + ": ")
                        + e.getMessage()));
            }
        }
        // Bits nvdisasm does not print come back as the assembler's defaults: the same instruction to nvdisasm.
        RawOracle.Read[] again = backs.isEmpty() ? new RawOracle.Read[0] : RawOracle.read(backs, oracleSm);
        int hidden = 0;
        Map<String, Integer> hiddenByOpcode = new TreeMap<>();
        for (int k = 0; k < backs.size(); k++) {
            int i = backOf.get(k);
            String text = agreed[i];
            if (again[k] != null && again[k].address() != theirs[i].address()) {
                // read at another address: a branch target prints otherwise, so compare with the original word's
                // text there
                long[] w = words.get(i);
                text = normalize(SassPrinter.text(isa.decode(w[0], w[1]), again[k].address(), null));
            }
            if (again[k] != null && normalize(again[k].text()).equals(text)) {
                hidden++;
                hiddenByOpcode.merge(opcode(text), 1, Integer::sum);
            } else {
                long[] b = backs.get(k);
                misses.add(new Miss(Failure.NOT_REASSEMBLED, opcode(text), "'" + text + "' ("
                        + SassIsa.hex128(words.get(i)[0], words.get(i)[1]) + ") assembles to " + SassIsa.hex128(b[0], b[1])
                        + (again[k] == null ? ", which nvdisasm refuses" : ", which nvdisasm reads '"
                        + normalize(again[k].text()) + "'")));
            }
        }
        return new Tally(oracleSm, words.size(), read, exact, hidden, refused, invalid, List.copyOf(misses),
                java.util.Collections.unmodifiableMap(hiddenByOpcode));
    }

    static String normalize(String text) {
        return text.replaceAll("\\s*;\\s*$", "").replaceAll("\\s+", " ").strip();
    }

    /** The opcode of a text without guard or modifiers: {@code @!P0 IMAD.WIDE.U32 R2, ...} gives {@code IMAD}. */
    static String opcode(String text) {
        String t = text.startsWith("@") ? text.substring(text.indexOf(' ') + 1) : text;
        int end = 0;
        while (end < t.length() && (Character.isLetterOrDigit(t.charAt(end)) || t.charAt(end) == '_')) {
            end++;
        }
        return t.substring(0, end);
    }
}
