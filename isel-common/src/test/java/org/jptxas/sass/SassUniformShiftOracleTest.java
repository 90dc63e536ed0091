package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SHF with a uniform-register shift amount ({@code SHF.L.U32 R7, R0, UR4, RZ}, which ptxas 13 writes for video
 * instructions' shifts): every direction (L/R, bit 76), wrap (.W, 75), type (S64/U64/S32/U32, 74:73) and .HI (80)
 * decodes to nvdisasm 12.5's text and assembles back on sm_75 ... sm_90 (the tables had learned only one such form,
 * with a reused source, on sm_75 ... sm_89, so nothing composed onto it).
 */
class SassUniformShiftOracleTest {
    static List<long[]> words() {
        List<long[]> out = new ArrayList<>();
        for (long direction = 0; direction < 2; direction++) {
            for (long wrap = 0; wrap < 2; wrap++) {
                for (long type = 0; type < 4; type++) {
                    for (long high = 0; high < 2; high++) {
                        long hi = 0x000fd000080000ffL | direction << 12 | wrap << 11 | type << 9 | high << 16;
                        out.add(new long[] {0x0000000400077c19L, hi});
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyUniformShiftDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
