package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * I2F.{S64,U64} with an immediate source: the 32-bit field is the 64-bit value's high word, its low word zero.
 * ptxas 13 writes cvt.rn.f32.s64 of INT64_MIN as {@code I2F.S64 R5, -0x80000000} (sm_75, sm_80) and loads -1 or
 * 16777217, values a sign-extended immediate would hold, from c[0x2].
 */
class WideIntegerToFloatImmediateTest {
    @Test
    void theImmediateIsTheHighWord() throws Exception {
        int[] out = SassTextRun.ops("sm_80", List.of(), List.of(
                "I2F.S64 Rd, -0x80000000",
                "I2F.S64 Rd, 0x1"));
        assertArrayEquals(new int[] {
            0xdf000000, // -2^63
            0x4f800000, // 2^32, not 1
        }, out);
    }
}
