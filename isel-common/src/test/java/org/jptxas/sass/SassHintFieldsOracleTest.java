package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.sass.oracle.VariedWords;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LD/ST/LDG/STG's hint fields, the lazy modifier classes ({@code HintFields}): eviction priority [86:84] (EF, none,
 * EL, LU, EU, NA) and, on loads, L2 prefetch size [69:68] (none, LTC64B, LTC128B, LTC256B). (sm_75's classes, which
 * have no LTC256B, come from the same nvdisasm probe; these are sm_80 words, which sm_75 encodes otherwise.)
 * ptxas 13 writes them for ld/st {@code .L1::evict_*} and {@code .L2::64B/128B/256B} (the instruction-form suite's
 * cubins: LD.E.EL.U8, LDG.E.EU.LTC128B.64.STRONG.GPU, ST.E.NA.S16.STRONG.SM). Each of ptxas's words gets every hint
 * value, with random registers, offset and guard, and must decode to exactly nvdisasm 12.5's text and assemble back.
 */
class SassHintFieldsOracleTest {
    /** ptxas's word (hi, lo as nvdisasm prints them), whether it is a load (has the prefetch field), fields varied. */
    record Sample(String word, boolean load, List<String> fields) {}

    static final List<Sample> SAMPLES = List.of(
            // LD.E.EL R5, [R4.64+0x40]; LD.E.EL.64.STRONG.SM R4, [R4.64+0x40]; LD.E.LTC64B.U8 R5, [R4.64+0x40]
            new Sample("000ea2000c2019000000400404057980", true, List.of("15:12", "23:16", "31:24", "63:40")),
            new Sample("000ea2000c20bb000000400404047980", true, List.of("23:16", "31:24", "63:40")),
            new Sample("000ea2000c1011100000400404057980", true, List.of("23:16", "31:24", "63:40")),
            // LDG.E.EU.LTC128B.128.STRONG.GPU R4, [R4.64+0x40]
            new Sample("000ea2000c4efd200000400404047981", true, List.of("15:12", "23:16", "31:24", "63:40")),
            // ST.E.EL [R6.64+0x40], R3; ST.E.EL.S16.STRONG.SM [R6.64+0x40], R3
            new Sample("004fe8000c2019040000400306007985", false, List.of("15:12", "31:24", "39:32", "63:40")),
            new Sample("004fe8000c20b7040000400306007985", false, List.of("31:24", "39:32", "63:40")));

    static final int VARIANTS = 3;

    static List<long[]> words(String sm) {
        Random random = new Random(84);
        List<long[]> out = new ArrayList<>();
        for (Sample s : SAMPLES) {
            for (long[] w : VariedWords.of(s.word(), s.fields(), VARIANTS, random)) {
                for (int evict = 0; evict < 6; evict++) {
                    for (int l2 = 0; l2 < (s.load() ? 4 : 1); l2++) {
                        long[] v = RawWordCheck.withField(w, 84, 3, evict);
                        out.add(s.load() ? RawWordCheck.withField(v, 68, 2, l2) : v);
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_89", "sm_90"})
    void everyEvictionPriorityAndPrefetchSizeDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        // (a word whose cache-policy register nvdisasm hides reassembles to one it reads alike)
        RawWordCheck.run(sm, sm, words(sm), RawWordCheck.Rules.STRICT.acceptingAlikeReassembly()).assertNoneWrong();
    }
}
