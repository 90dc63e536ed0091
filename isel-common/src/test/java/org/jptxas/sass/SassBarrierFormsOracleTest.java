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
 * BAR forms the instruction-form suite needs beyond those ptxas showed on the corpus: {@code BAR.RED.{POPC,AND,OR}}
 * with the barrier in a register (key 0x51d), with an immediate barrier and a register count (0x91d), with an
 * immediate or register barrier and an immediate count, and {@code BAR.SYNC}/{@code BAR.ARV} with any immediate
 * count, and all of them with one register for barrier and count (key 0x31d, which nvdisasm prints twice:
 * {@code BAR.SYNC R4, R4}). Each word gets random values in every field (guard, register, barrier id [57:54] (nvdisasm ignores [63:58] and [73:64]), count [53:42],
 * predicate [89:87] and its inversion [90], the reduction [76:74], DEFER_BLOCKING [80]) and must decode to exactly
 * nvdisasm 12.5's text and assemble back to itself.
 */
class SassBarrierFormsOracleTest {
    private static final String GUARD = "15:12";
    private static final String ID = "57:54";
    private static final String COUNT = "+53:42";
    private static final String RED = "~76:74";

    /** A word (hi, lo as nvdisasm prints them) and the fields varied. */

    static final List<Sample> SAMPLES = List.of(
            // BAR.RED.AND R3, P1: barrier in a register, all threads
            new Sample("000fea0000804400000000030000751d", List.of(GUARD, "39:32", "89:87", RED, "80:80", "90:90")),
            // BAR.RED.POPC R3, 0x40, P1
            new Sample("000fea0000804000000100030000751d", List.of(GUARD, "39:32", COUNT, "89:87", RED, "80:80",
                    "90:90")),
            // BAR.RED.AND 0x1, R3, P1 (ptxas's word)
            new Sample("000fea0000804400004000030000791d", List.of(GUARD, ID, "39:32", "89:87", RED, "80:80",
                    "90:90")),
            // BAR.RED.POPC 0x1, 0x40, P1
            new Sample("000fea00008040000041000000007b1d", List.of(GUARD, ID, COUNT, "89:87", RED, "80:80",
                    "90:90")),
            // BAR.RED.POPC 0x3, PT (ptxas's word)
            new Sample("000fec000381400000c0000000007b1d", List.of(ID, RED, "80:80", "90:90")),
            // BAR.RED.POPC R6, R6, P0 (ptxas's word; key 0x31d: one register holds barrier and count, printed twice)
            new Sample("000fea0000004000000000060000731d", List.of(GUARD, "39:32", "89:87", RED, "80:80", "90:90")),
            // BAR.SYNC R4, R4 and BAR.ARV R5, R5 (ptxas's words)
            new Sample("000fea0000000000000000040000731d", List.of(GUARD, "39:32", "80:80")),
            new Sample("000fea0000002000000000050000731d", List.of(GUARD, "39:32")),
            // BAR.ARV R0, 0x40 and BAR.SYNC R3, 0x40
            new Sample("000fea0000002000000100000000751d", List.of(GUARD, "39:32", COUNT)),
            new Sample("000fea0000000000000100030000751d", List.of(GUARD, "39:32", COUNT, "80:80")),
            // BAR.ARV 0x1, 0x40 and BAR.SYNC 0x1, 0x40
            new Sample("000fea00000020000041000000007b1d", List.of(GUARD, ID, COUNT)),
            new Sample("000fea00000000000041000000007b1d", List.of(GUARD, ID, COUNT, "80:80")));

    /** Variants per sample; the first is the word itself. */
    static final int VARIANTS = 24;

    static List<long[]> words() {
        return VariedWords.of(SAMPLES, VARIANTS, new Random(21));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void barrierWordsWithEveryFieldVariedDecodeAsNvdisasmAndAssembleBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
