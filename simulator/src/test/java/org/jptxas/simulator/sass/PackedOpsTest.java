package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** HMNMX2's NaN rules, HFMA2.BF16_V2 and I2IP's saturation, against values worked out by hand. */
class PackedOpsTest {
    // f16: 1.0 = 0x3c00, 2.0 = 0x4000, -0 = 0x8000, a NaN with a payload = 0x7e01; bf16: 1.0 = 0x3f80, 2.0 = 0x4000
    @Test
    void minMaxTakesTheNumberOverOneNanAndCanonicalNanOverTwo() {
        assertEquals(0x4000_3c00, PackedOps.minMax2(0x4000_3c00, 0x7e01_4000, true, false, false)); // hi: NaN, 2
        assertEquals(0x4000_4000, PackedOps.minMax2(0x4000_3c00, 0x7e01_4000, false, false, false));
        assertEquals(0x7fff_3c00, PackedOps.minMax2(0x7e01_3c00, 0xfe00_4000, true, false, false)); // both NaN
        assertEquals(0x8000_8000, PackedOps.minMax2(0x0000_8000, 0x8000_0000, true, false, false)); // -0 < +0
        assertEquals(0x0000_0000, PackedOps.minMax2(0x0000_8000, 0x8000_0000, false, false, false));
    }

    @Test
    void nanModeGivesTheCanonicalNanForAnyNanOperand() {
        assertEquals(0x7fff_3c00, PackedOps.minMax2(0x4000_3c00, 0x7e01_4000, true, true, false));
        assertEquals(0x7fff_4000, PackedOps.minMax2(0x7fc1_3f80, 0x3f80_4000, false, true, true)); // bf16 NaN 0x7fc1
        assertEquals(0x3f80_3f80, PackedOps.minMax2(0x7fc1_3f80, 0x3f80_4000, true, false, true));
    }

    @Test
    void bf16FmaRoundsOnce() {
        // 1 * 2 + 1 = 3 (0x4040) in both lanes; -2 * 1 + 1 = -1 (0xbf80), 0 with .RELU
        assertEquals(0x4040_4040, PackedOps.fma2Bf16(0x3f80_3f80, 0x4000_4000, 0x3f80_3f80, false));
        assertEquals(0xbf80_4040, PackedOps.fma2Bf16(0xc000_3f80, 0x3f80_4000, 0x3f80_3f80, false));
        assertEquals(0x0000_4040, PackedOps.fma2Bf16(0xc000_3f80, 0x3f80_4000, 0x3f80_3f80, true));
    }

    @Test
    void packSaturatesEachSourceToTheNarrowType() {
        // s16: a = 70000 -> 0x7fff (high half), b = -70000 -> 0x8000 (low half)
        assertEquals(0x7fff_8000, PackedOps.packSaturated(70000, -70000, 0x1234_5678, 16, true));
        // u16: negatives to 0, 65536 to 0xffff; c is not used
        assertEquals(0x0000_ffff, PackedOps.packSaturated(-1, 65536, 0x1234_5678, 16, false));
        // s8: a = 200 -> 0x7f at bits 8..15, b = -1 -> 0xff, c's low half-word above them
        assertEquals(0x5678_7fff, PackedOps.packSaturated(200, -1, 0x1234_5678, 8, true));
        // u8: a = 255 stays, b = 300 -> 0xff
        assertEquals(0x0001_ffff, PackedOps.packSaturated(255, 300, 1, 8, false));
    }
}
