package org.jptxas.sass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.FormWords;
import org.jptxas.sass.oracle.WordDifferential;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The random word-level differential against nvdisasm 12.5: for every form of an SM (learned and composed, so every
 * modifier value of every class), random words with every operand field at a random value of its full width
 * ({@link FormWords}) must decode to nvdisasm's exact text and assemble back to their bits
 * ({@link WordDifferential}). Seeded per form and deterministic: a form added to the tables does not redraw the
 * others' words. Words per form: {@code -Djptxas.words.perForm=N} (learned
 * forms; default 4) and {@code -Djptxas.words.perComposed=N} (composed forms; default 1), seed
 * {@code -Djptxas.words.seed}. By default only composed forms that show a modifier value (or operand shape) not
 * shown before take part ({@link FormWords#covering}), which keeps a run under a minute per SM; every composed form
 * with {@code -Djptxas.words.allComposed=true}. The counts are figures at the defaults; each run writes its failures, by opcode and
 * one line per word, to {@code target/reports/random-words-SM.txt}. {@code -Djptxas.words.sm=sm_80} runs one SM alone
 * (an all-composed run of every SM at once is long).
 */
class SassRandomWordsOracleTest {
    private static final int PER_FORM = Integer.getInteger("jptxas.words.perForm", 4);
    private static final int PER_COMPOSED = Integer.getInteger("jptxas.words.perComposed", 1);
    private static final long SEED = Long.getLong("jptxas.words.seed", 20L);
    private static final boolean ALL_COMPOSED = Boolean.getBoolean("jptxas.words.allComposed");
    private static final String ONLY_SM = System.getProperty("jptxas.words.sm", "");

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void randomWordsDecodeAndAssembleAsNvdisasmReadsThem(String sm) throws IOException {
        Oracles.assumeNvdisasm();
        Assumptions.assumeTrue(ONLY_SM.isEmpty() || ONLY_SM.equals(sm), "-Djptxas.words.sm=" + ONLY_SM);
        SassIsa isa = TestTargets.of(sm).isa();
        List<long[]> words = new ArrayList<>(FormWords.of(sm, isa.forms(), PER_FORM, SEED));
        List<SassForm> composed = ALL_COMPOSED ? isa.composedForms() : FormWords.covering(isa.composedForms());
        words.addAll(FormWords.of(sm, composed, PER_COMPOSED, SEED + 1));
        long start = System.nanoTime();
        WordDifferential.Tally t = WordDifferential.run(isa, sm.equals("sm_90") ? "sm_90a" : sm, words);
        System.out.printf("%s: %d words (%d learned forms x %d, %d composed x %d): nvdisasm reads %d (refuses %d,"
                        + " INVALID/UNKNOWN %d); jptxas exact text and bits %d, bits nvdisasm does not print %d;"
                        + " %d disagreements, %d refused words jptxas reads; %.1f s%n",
                sm, t.words(), isa.forms().size(), PER_FORM, composed.size(), PER_COMPOSED, t.read(),
                t.refused(), t.invalid(), t.exact(), t.hidden(), t.disagreements(), t.readsRefused(),
                (System.nanoTime() - start) / 1e9);
        t.byOpcode().forEach((k, v) -> System.out.println("  " + k + " x" + v));
        System.out.println("  bits nvdisasm does not print, by opcode: " + t.hiddenByOpcode());
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        List<String> lines = new ArrayList<>();
        t.byOpcode().forEach((k, v) -> lines.add(k + " x" + v));
        t.misses().forEach(m -> lines.add(m.toString()));
        Files.write(reports.resolve("random-words-" + sm + ".txt"), lines);
        if (PER_FORM == 4 && PER_COMPOSED == 1 && SEED == 20L && !ALL_COMPOSED) {
            Figures.check("sass.words.read." + sm, t.read());
            Figures.check("sass.words.agree." + sm, t.exact() + t.hidden());
            Figures.check("sass.words.disagree." + sm, t.disagreements());
            Figures.check("sass.words.readsrefused." + sm, t.readsRefused());
        }
    }
}
