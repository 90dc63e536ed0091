package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jptxas.sass.oracle.FormWords;
import org.jptxas.testing.Oracles;
import org.jptxas.sass.oracle.WordDifferential;
import org.jptxas.tables.sass.SassDecorationClass;
import org.jptxas.tables.sass.SassOperandDecoration;
import org.jptxas.testing.gate.Figures;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operand decorations ({@link OperandDecorations}, {@code tools/sass-probe/operand-decorations}) against
 * nvdisasm 12.5: for every learned form of a key and operand count that has decoration bits the form fixes at zero,
 * random words with a random nonempty set of those bits on top of random operand fields must decode to nvdisasm's
 * exact text and assemble back as a listing. Seeded and deterministic.
 */
class SassOperandDecorationsOracleTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void decoratedWordsDecodeAndAssembleAsNvdisasmReadsThem(String sm) {
        Oracles.assumeNvdisasm();
        SassIsa isa = TestTargets.of(sm).isa();
        List<long[]> words = decoratedWords(isa, 2, 21L);
        WordDifferential.Tally t = WordDifferential.run(isa, sm.equals("sm_90") ? "sm_90a" : sm, words);
        System.out.printf("%s: %d decorated words: nvdisasm reads %d (refuses %d, INVALID/UNKNOWN %d); jptxas exact"
                        + " text and bits %d, bits nvdisasm does not print %d; %d disagreements%n", sm, t.words(),
                t.read(), t.refused(), t.invalid(), t.exact(), t.hidden(), t.disagreements());
        t.misses().stream().limit(40).forEach(m -> System.out.println("  " + m));
        assertTrue(t.read() > 0, "no decorated word read");
        Figures.check("sass.words.decorated.read." + sm, t.read());
        Figures.check("sass.words.decorated.disagree." + sm, t.disagreements());
        // words no form explains even without their decorations stay UNKNOWN (counted above); a word printed
        // otherwise than nvdisasm prints it, or assembled to other bits, is a wrong table
        List<String> wrong = t.misses().stream().filter(m -> m.failure() != WordDifferential.Failure.UNKNOWN)
                .map(Object::toString).toList();
        assertEquals(List.of(), wrong, "decorated words jptxas prints or assembles otherwise than nvdisasm reads them");
    }

    /**
     * {@code perForm} words of every learned form whose key and operand count have decoration bits the form fixes
     * at zero: random operand fields, a random nonempty subset of those bits set.
     */
    static List<long[]> decoratedWords(SassIsa isa, int perForm, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<long[]> out = new ArrayList<>();
        for (SassForm f : isa.forms()) {
            if (f.decodeOnly) {
                continue;
            }
            int operands = f.operands().operands().size();
            for (SassDecorationClass c : isa.decorations().ofKey(f.key)) {
                if (c.operands() != operands || !ModifierComposer.base(f.mnemonic).equals(c.mnemonic())) {
                    continue;
                }
                List<Integer> bits = new ArrayList<>();
                for (SassOperandDecoration d : c.decorations()) {
                    long m = 1L << (d.bit() & 63);
                    boolean fixedZero = d.bit() < 64 ? (f.maskLo & m) != 0 && (f.bitsLo & m) == 0
                            : (f.maskHi & m) != 0 && (f.bitsHi & m) == 0;
                    if (fixedZero) {
                        bits.add(d.bit());
                    }
                }
                for (int i = 0; i < perForm && !bits.isEmpty(); i++) {
                    long[] w = FormWords.random(f, random);
                    int subset = 1 + random.nextInt((1 << bits.size()) - 1);
                    for (int b = 0; b < bits.size(); b++) {
                        if ((subset >> b & 1) != 0) {
                            w[bits.get(b) < 64 ? 0 : 1] |= 1L << (bits.get(b) & 63);
                        }
                    }
                    out.add(w);
                }
            }
        }
        return out;
    }
}
