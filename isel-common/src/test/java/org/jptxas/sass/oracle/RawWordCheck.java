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

    /** The words that failed, one line each, and the words a known gap let through uncompared. */
    public record Outcome(String sm, int words, List<String> wrong, int gaps) {
        /** Fails with the first few wrong words. */
        public void assertNoneWrong() {
            assertEquals(List.of(), wrong.subList(0, Math.min(8, wrong.size())), sm + ": " + wrong.size() + " of "
                    + words + " wrong");
        }
    }

    /** Checks every word; none may be a gap. */
    public static Outcome run(String sm, List<long[]> words) {
        return run(sm, words, (w, in) -> false);
    }

    /**
     * Checks every word but those whose decoding {@code gap} accepts (a form the tables do not compose yet, say),
     * which are counted instead: a gap may print UNKNOWN, never a wrong text it is not asked to excuse.
     */
    public static Outcome run(String sm, List<long[]> words, BiPredicate<long[], SassInstruction> gap) {
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler asm = new SassAssembler(isa);
        List<String> texts = OracleListings.rawTexts(words, sm);
        List<String> wrong = new ArrayList<>();
        int gaps = 0;
        for (int i = 0; i < words.size(); i++) {
            long[] w = words.get(i);
            String theirs = texts.get(i);
            SassInstruction in = isa.decode(w[0], w[1]);
            if (gap.test(w, in)) {
                gaps++;
                continue;
            }
            String ours = SassPrinter.text(in, 0, x -> null);
            if (!ours.equals(theirs)) {
                wrong.add(String.format("%016x %016x: nvdisasm '%s', jptxas '%s'", w[0], w[1], theirs, ours));
                continue;
            }
            try {
                long[] back = asm.assemble(theirs, Control.fromHi(w[1]), 0, x -> 0);
                if (back[0] != w[0] || back[1] != w[1]) {
                    wrong.add(String.format("'%s' assembles to %016x %016x, not %016x %016x", theirs, back[0], back[1],
                            w[0], w[1]));
                }
            } catch (SassAssembler.AssemblyException e) {
                wrong.add("'" + theirs + "' does not assemble: " + e.getMessage());
            }
        }
        return new Outcome(sm, words.size(), wrong, gaps);
    }
}
