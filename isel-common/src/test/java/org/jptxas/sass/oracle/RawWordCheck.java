package org.jptxas.sass.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.TestTargets;

/**
 * The word-level differential of the raw-word oracle tests: each word, built from encoding fields, is decoded by
 * jptxas and must print exactly nvdisasm 12.5's text of it (raw mode), and that text must assemble back to the same
 * word, control bits included. Words are named by target ({@code sm_80}), as nvdisasm's {@code -b SM80} reads them.
 */
public final class RawWordCheck {
    private RawWordCheck() {}

    /**
     * How strict the check is. {@code refusals}: words nvdisasm refuses (or names INVALID) may be among the words
     * (every combination of a class's fields, say); they are counted, and jptxas must not read a word nvdisasm
     * refuses (one it names INVALID is not compared). Otherwise nvdisasm must read every word. {@code alike}: a word
     * that assembles back to other bits passes when nvdisasm reads those bits as the same text (bits nvdisasm does not
     * print). {@code unknownRefused}: words jptxas decodes UNKNOWN count as refused without asking nvdisasm (the
     * tables refuse the combinations nvdisasm refuses, and the caller checks their number exactly; nvdisasm's
     * refusals cost a run each). {@code gap}: words whose decoding it accepts (a form the tables do not compose yet)
     * are counted instead of checked: a gap may print UNKNOWN, never a wrong text it is not asked to excuse.
     */
    public record Rules(boolean refusals, boolean alike, boolean unknownRefused,
                        BiPredicate<long[], SassInstruction> gap) {
        public static final Rules STRICT = new Rules(false, false, false, (w, in) -> false);

        public Rules toleratingRefusals() {
            return new Rules(true, alike, unknownRefused, gap);
        }

        public Rules acceptingAlikeReassembly() {
            return new Rules(refusals, true, unknownRefused, gap);
        }

        /** Tolerates refusals, and counts the words the tables refuse (decode UNKNOWN) among them unread. */
        public Rules countingTableRefusals() {
            return new Rules(true, alike, true, gap);
        }

        public Rules withGap(BiPredicate<long[], SassInstruction> g) {
            return new Rules(refusals, alike, unknownRefused, g);
        }
    }

    /**
     * The outcome: {@code wrong} (texts that do not assemble back, words nvdisasm refuses that jptxas reads),
     * {@code unknown} and {@code misprinted} (jptxas's text differs from nvdisasm's, as UNKNOWN or another text),
     * the words nvdisasm refused and the gaps let through uncompared.
     */
    public record Outcome(String sm, int words, List<String> wrong, List<String> unknown, List<String> misprinted,
                          int refused, int gaps) {
        /** Every failure, one line each. */
        public List<String> failures() {
            List<String> all = new ArrayList<>(unknown);
            all.addAll(misprinted);
            all.addAll(wrong);
            return all;
        }

        /** Fails with the first few failures. */
        public void assertNoneWrong() {
            List<String> all = failures();
            assertEquals(List.of(), all.subList(0, Math.min(8, all.size())), sm + ": " + all.size() + " of " + words
                    + " wrong");
        }
    }

    /** {@code w} (low, high 64 bits) with bits {@code [lo + width - 1 : lo]} set to {@code value}. */
    public static long[] withField(long[] w, int lo, int width, long value) {
        long[] x = w.clone();
        for (int b = 0; b < width; b++) {
            int bit = lo + b;
            long v = value >>> b & 1;
            if (bit < 64) {
                x[0] = x[0] & ~(1L << bit) | v << bit;
            } else {
                x[1] = x[1] & ~(1L << (bit - 64)) | v << (bit - 64);
            }
        }
        return x;
    }

    /** Checks every word; none may be a gap. */
    public static Outcome run(String sm, List<long[]> words) {
        return run(sm, sm, words, Rules.STRICT);
    }

    /** As {@link #run(String, List)}, with the gaps {@code gap} accepts counted instead of checked. */
    public static Outcome run(String sm, List<long[]> words, BiPredicate<long[], SassInstruction> gap) {
        return run(sm, sm, words, Rules.STRICT.withGap(gap));
    }

    /** Decodes with {@code sm}'s tables, reads with nvdisasm as {@code oracleSm} ({@code sm_90a} for sm_90's). */
    public static Outcome run(String sm, String oracleSm, List<long[]> words, Rules rules) {
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler asm = new SassAssembler(isa);
        int refused = 0;
        if (rules.unknownRefused()) {
            List<long[]> read = new ArrayList<>();
            for (long[] w : words) {
                if (isa.decode(w[0], w[1]) instanceof SassInstruction.Unknown) {
                    refused++;
                } else {
                    read.add(w);
                }
            }
            words = read;
        }
        List<String> texts = texts(words, oracleSm, rules.refusals());
        List<String> wrong = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<String> misprinted = new ArrayList<>();
        List<long[]> backs = new ArrayList<>();
        List<Integer> backOf = new ArrayList<>();
        int gaps = 0;
        for (int i = 0; i < words.size(); i++) {
            long[] w = words.get(i);
            String theirs = texts.get(i);
            SassInstruction in = isa.decode(w[0], w[1]);
            String ours = SassPrinter.text(in, 0, x -> null);
            if (theirs == null || theirs.contains("INVALID")) {
                refused++;
                if (theirs == null && !(in instanceof SassInstruction.Unknown)) {
                    wrong.add("nvdisasm refuses " + SassIsa.hex128(w[0], w[1]) + ", jptxas reads '" + ours + "'");
                }
                continue;
            }
            if (rules.gap().test(w, in)) {
                gaps++;
                continue;
            }
            if (!ours.equals(theirs)) {
                (in instanceof SassInstruction.Unknown ? unknown : misprinted).add(String.format(
                        "%016x %016x: nvdisasm '%s', jptxas '%s'", w[0], w[1], theirs, ours));
                continue;
            }
            try {
                long[] back = asm.assembleListing(theirs, Control.fromHi(w[1]), 0, x -> 0);
                if (back[0] != w[0] || back[1] != w[1]) {
                    backs.add(back);
                    backOf.add(i);
                }
            } catch (SassAssembler.AssemblyException e) {
                wrong.add("'" + theirs + "' does not assemble: " + e.getMessage());
            }
        }
        // A word that differs only in bits nvdisasm does not print is the same instruction to it.
        List<String> again = rules.alike() && !backs.isEmpty() ? texts(backs, oracleSm, true) : null;
        for (int k = 0; k < backs.size(); k++) {
            long[] w = words.get(backOf.get(k));
            String theirs = texts.get(backOf.get(k));
            if (again == null || !theirs.equals(again.get(k))) {
                wrong.add(String.format("'%s' assembles to %016x %016x, not %016x %016x%s", theirs, backs.get(k)[0],
                        backs.get(k)[1], w[0], w[1], again == null ? "" : ", which nvdisasm reads '" + again.get(k)
                        + "'"));
            }
        }
        return new Outcome(oracleSm, words.size() + (rules.unknownRefused() ? refused : 0), wrong, unknown, misprinted,
                refused, gaps);
    }

    /** nvdisasm's normalized texts; with {@code refusals}, null for each word it refuses. */
    private static List<String> texts(List<long[]> words, String sm, boolean refusals) {
        if (!refusals) {
            return OracleListings.rawTexts(words, sm);
        }
        List<String> out = new ArrayList<>();
        for (RawOracle.Read r : RawOracle.read(words, sm)) {
            out.add(r == null ? null : r.text().replaceAll("\\s*;\\s*$", "").replaceAll("\\s+", " ").strip());
        }
        return out;
    }
}
