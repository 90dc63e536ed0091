package org.jptxas.sass;

import java.util.List;
import java.util.Random;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.sass.oracle.VariedWords;
import org.jptxas.sass.oracle.VariedWords.Sample;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forms of words ptxas 13 writes for the instruction-form suite that the decoder did not know (the emulator stopped
 * on ptxas's cubin; {@code UnknownWordsReportTest} ranks them): HSET2 with .H0_H0 sources (scalar f16/bf16 set), FSEL
 * with |a| or a's reuse flag, STS with a .X16-scaled index for every size ({@code tools/sass-probe/field-enums.py}).
 * Each of ptxas's words gets random values in every field (registers, predicates, offsets, the class's enums) and
 * must decode to exactly nvdisasm 12.5's text and assemble back to itself.
 */
class SassFormSuiteWordsOracleTest {
    /** ptxas's word (hi, lo as nvdisasm prints them) and the fields varied. */

    static final List<Sample> SAMPLES = List.of(
            // HSET2.EQ.AND R0, R0.H0_H0, R5.H0_H0, P0: d, a, b, c, comparison [79:76], .FTZ [80], .BF [71], the
            // boolean operation [70:69], !c [90]
            new Sample("008fe200000028002000000500007233", List.of("23:16", "31:24", "39:32", "!89:87", "79:76",
                    "80:80", "71:71", "~70:69", "90:90")),
            // FSEL R7, |R0|, R7, P0 (-a [72] too) and FSEL R11, R6.reuse, R9, P0
            new Sample("008fca00000002000000000700077208", List.of("23:16", "31:24", "39:32", "89:87", "72:72",
                    "90:90")),
            new Sample("041fe4000000000000000009060b7208", List.of("23:16", "31:24", "39:32", "89:87", "90:90")),
            // STS [R7.X16+0x2040], R0: every size [75:73] but .128 (learned), index, offset, data
            new Sample("004fe8000000c8000020400007007388", List.of("#31:24", "63:40", "39:32")),
            new Sample("004fe8000000c0000020400007007388", List.of("#31:24", "63:40", "39:32")),
            new Sample("004fe8000000c2000020400007007388", List.of("#31:24", "63:40", "39:32")),
            new Sample("004fe8000000c4000020400007007388", List.of("#31:24", "63:40", "39:32")),
            new Sample("004fe8000000c6000020400007007388", List.of("#31:24", "63:40", "39:32")),
            new Sample("004fe8000000ca000020400006007388", List.of("#31:24", "63:40")),
            new Sample("004fe8000000c8000000000007007388", List.of("#31:24", "39:32")));

    static final int VARIANTS = 24;

    static List<long[]> words() {
        return VariedWords.of(SAMPLES, VARIANTS, new Random(233));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void formSuiteWordsDecodeAsNvdisasmAndAssembleBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
