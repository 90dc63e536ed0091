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
 * Memory instructions' cache-policy register where nvdisasm does not print it (bit [101] clear): [39:32] for loads,
 * [70:64] or [71:64] for stores, reductions and atomics, [69:64] for LDGSTS ({@code tools/sass-probe/hidden-policy}),
 * and printed as {@code desc[URn]} (bit [101] set; n its low 6 bits, the rest still hidden). ptxas 13 writes any
 * uniform register there (UR36 in the random programs' and the instruction-form suite's cubins), which the learned
 * forms, fixed to the values the corpus showed, did not decode. Each word gets random values in the hidden bits and
 * its operands and must decode to exactly nvdisasm 12.5's text; the text assembles back to a word nvdisasm reads
 * alike (the hidden bits cannot come back from the text).
 */
class SassHiddenPolicyOracleTest {
    /** ptxas's word (hi, lo as nvdisasm prints them) and the fields varied. */


    static final List<Sample> SAMPLES = List.of(
            // LDG.E R5, [R10.64+0x800] and @P2 LDG.E.CONSTANT R25, [R4.64+0x800]: the register at [39:32]
            new Sample("000ea2000c1e1900000800240a057981", List.of("39:32", "23:16", "31:24", "63:40")),
            new Sample("000168000c1e99000008002404192981", List.of("39:32", "!14:12", "23:16", "31:24", "63:40")),
            new Sample("000f62000c1e9b00000c002426267981", List.of("39:32", "23:16", "31:24", "63:40")),
            // @P0 RED.E.ADD.STRONG.GPU [R10.64+0x8], R9 (and .MIN): [70:64]; [71] set, or it adds URn to the address
            new Sample("0003e4000c10e1a4000008090a00098e", List.of("70:64", "!14:12", "31:24", "39:32", "63:40")),
            new Sample("0003e8000c90e1a4fffffc050a00098e", List.of("70:64", "!14:12", "31:24", "39:32", "63:40")),
            // ST.E [R6.64+0x40], R3: [71:64]
            new Sample("004fe8000c1019060000400306007985", List.of("71:64", "31:24", "39:32", "63:40")),
            // ... and printed (bit [101]): LD.E R0, desc[UR4][R6.64+0x40], LDG.E R11, desc[UR6][R8.64],
            // ST.E desc[UR6][R6.64+0x40], R3, RED.E.ADD.F16x2.RN.STRONG.SM desc[UR6][R6.64+0x40], R3
            new Sample("000ea4200c1019000000400406007980", List.of("39:32", "23:16", "31:24", "63:40")),
            new Sample("000062200c1e190000000006080b7981", List.of("39:32", "23:16", "31:24")),
            new Sample("004fe8200c1019060000400306007985", List.of("71:64", "31:24", "39:32", "63:40")),
            new Sample("004fe8200c10a986000040030600798e", List.of("70:64", "31:24", "39:32", "63:40")),
            // LDGSTS.E.BYPASS.128 [R0], [R14.64] and LDGSTS.E [R3+0x800], [R6.64], !P0: the descriptor pair at [69:64]
            new Sample("0003e8000b901c44000000000e007fae", List.of("69:64", "23:16", "31:24")),
            new Sample("0003e8000c1218440080000006037fae", List.of("69:64", "23:16", "31:24")));

    static final int VARIANTS = 32;

    static List<long[]> words() {
        return VariedWords.of(SAMPLES, VARIANTS, new Random(101));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_89"})
    void hiddenPolicyRegistersDecodeAsNvdisasmReadsThem(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, sm, words(), RawWordCheck.Rules.STRICT.acceptingAlikeReassembly()).assertNoneWrong();
    }
}
