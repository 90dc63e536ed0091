package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code STS.128 [Ra.X16+imm], Rb}: the scaled-index shared store ptxas 13 writes in the set-up of shared-memory
 * kernels on sm_75 ... sm_89 (the instruction-form suite's harness), which the tables knew only without the offset,
 * so the emulator could not run those ptxas cubins. Words with positive, large and negative offsets and several
 * registers decode to nvdisasm 12.5's text and assemble back.
 */
class SassSharedScaledAddressOracleTest {
    static List<long[]> words() {
        List<long[]> out = new ArrayList<>();
        // ptxas's STS.128 [R13.X16+0x2040], R8: 0x004fe8000000cc00 002040080d007388
        for (long offset : new long[] {0x10, 0x2040, 0x7ffff0, 0xfffff0}) {
            for (long[] regs : new long[][] {{13, 8}, {7, 4}, {0, 12}}) {
                out.add(new long[] {offset << 40 | regs[1] << 32 | regs[0] << 24 | 0x007388L, 0x004fe8000000cc00L});
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89"})
    void scaledSharedStoresWithAnOffsetDecodeAsNvdisasmAndAssembleBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words()).assertNoneWrong();
    }
}
