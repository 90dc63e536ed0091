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
 * IMAD.U32.X of an immediate (key 0x824, [73] clear: unsigned; [74] set: .X), which ptxas 13 writes for a
 * {@code shl.b32} by k folded into the {@code addc.u32} of an add.cc chain: {@code IMAD.U32.X R3, R0, 0x2, RZ, P0}
 * on sm_75 ... sm_89 ({@code tools/sass-probe/kernels/decoder_gaps_imad_u32x.ptx}; sm_90 writes LEA.X there, but
 * reads the word alike). The sm_80 table had not learned it (the corpus never made ptxas emit it there), and sm_75/89
 * only with {@code ~Rc} or a reused source. Every operand field, found by single-bit flips against nvdisasm 12.5's
 * raw mode ({@code tools/sass-probe/derive-form.py}): Rd [23:16], Ra [31:24], the immediate [63:32] (printed signed),
 * Rc [71:64] and the carry-in predicate [89:87], gets random values, and each word must decode to exactly nvdisasm's
 * text and assemble back to itself. Not covered yet, as for the other learned IMAD.X forms: a guard [15:12], the
 * carry-in's negation [90] and Rc's inversion [75] on sm_80/86/89 (forms ptxas was not seen writing).
 */
class SassImadU32CarryOracleTest {
    /** IMAD.U32.X R3, R0, 0x2, RZ, P0 as ptxas 13 writes it on sm_80 (hi then lo). */
    static final Sample PTXAS_WORD = new Sample("000fca00000e04ff0000000200037824",
            List.of("23:16", "31:24", "63:32", "71:64", "89:87"));

    /** Variants; the first is the word itself. */
    static final int VARIANTS = 64;

    static List<long[]> words() {
        return VariedWords.of(List.of(PTXAS_WORD), VARIANTS, new Random(824));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyFieldOfTheImmediateUnsignedCarryMultiplyAddRoundTrips(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
