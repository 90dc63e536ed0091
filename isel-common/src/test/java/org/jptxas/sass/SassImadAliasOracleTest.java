package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IMAD words of every operand-dependent name (IMAD, .MOV, .IADD, .SHL; signed and .U32) with register and immediate
 * b and with register b and immediate c, guarded and not, built from the fields and read by nvdisasm 12.5 in raw mode: jptxas's decoder must print
 * exactly nvdisasm's text (no UNKNOWN: a selector writes {@code IMAD R, R, RZ, R}, which ptxas never does), and the
 * text must assemble back to the word.
 */
class SassImadAliasOracleTest {
    private static final long RZ = 0xff;

    static List<long[]> words() {
        List<long[]> out = new ArrayList<>();
        long[] imms = {0, 1, 2, 3, 4, 6, 8, 0x10, 0x100, 0x8000, 0x10000, 0x20000, 0x40000000, 0x7fffffff, 0x80000000L,
                0xfffffffeL, 0xffffffffL};
        for (long guard : new long[] {7, 2}) {
            for (boolean signed : new boolean[] {false, true}) {
                long hiBase = 0x000fe200078e0000L | (signed ? 1L << 9 : 0);
                for (long a : new long[] {23, RZ}) {
                    for (long c : new long[] {5, RZ}) {
                        for (long b : imms) {
                            out.add(new long[] {(b << 32) | (a << 24) | (29L << 16) | (guard << 12) | 0x824, hiBase | c});
                        }
                        for (long b : new long[] {6, RZ}) {
                            out.add(new long[] {(b << 32) | (a << 24) | (21L << 16) | (guard << 12) | 0x224, hiBase | c});
                        }
                        // register b in hi[7:0], immediate c in lo[63:32]
                        for (long imm : new long[] {0, 5, 0xfffffffeL}) {
                            long b = c == RZ ? RZ : 9;
                            out.add(new long[] {(imm << 32) | (a << 24) | (2L << 16) | (guard << 12) | 0x424, hiBase | b});
                        }
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyImadNameDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
