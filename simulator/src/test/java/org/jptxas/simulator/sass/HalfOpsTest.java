package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.jptxas.simulator.numeric.Rounding;
import org.junit.jupiter.api.Test;

/** Half-precision compares and integer-to-half rounding, against values worked out by hand. */
class HalfOpsTest {
    private static int h(long v, Rounding r) {
        return HalfOps.fromInteger(BigDecimal.valueOf(v), r);
    }

    @Test
    void integersRoundToHalfInEveryMode() {
        // 2049 lies between the halves 2048 (0x6800) and 2050 (0x6801)
        assertEquals(0x6800, h(2049, Rounding.RN)); // a tie: to even
        assertEquals(0x6800, h(2049, Rounding.RZ));
        assertEquals(0x6800, h(2049, Rounding.RM));
        assertEquals(0x6801, h(2049, Rounding.RP));
        assertEquals(0xe801, h(-2049, Rounding.RM));
        assertEquals(0xe800, h(-2049, Rounding.RP));
        assertEquals(0xe800, h(-2049, Rounding.RZ));
        // 2051 rounds up to 2052 (0x6802) to nearest; toward zero it stays at 2050
        assertEquals(0x6802, h(2051, Rounding.RN));
        assertEquals(0x6801, h(2051, Rounding.RZ));
        // past the largest half, 65504 (0x7bff): infinity to nearest and upward, 65504 toward zero and downward
        assertEquals(0x7c00, h(70000, Rounding.RN));
        assertEquals(0x7bff, h(70000, Rounding.RZ));
        assertEquals(0x7bff, h(70000, Rounding.RM));
        assertEquals(0x7c00, h(65505, Rounding.RP));
        assertEquals(0xfbff, h(-70000, Rounding.RP));
        assertEquals(0xfc00, h(-70000, Rounding.RM));
        assertEquals(0x7bff, h(Long.MAX_VALUE, Rounding.RZ));
        assertEquals(0x3c00, h(1, Rounding.RP)); // exact: no step
    }

    @Test
    void halvesCompareOneByOneWithNanAndFtz() {
        int one = 0x3c00, two = 0x4000, nan = 0x7e00, denormal = 0x0001;
        assertEquals(0b01, HalfOps.compare2("LT", two << 16 | one, one << 16 | two, false));
        assertEquals(0b00, HalfOps.compare2("EQ", nan << 16 | nan, nan << 16 | nan, false));
        assertEquals(0b11, HalfOps.compare2("NEU", nan << 16 | nan, nan << 16 | nan, false));
        assertEquals(0b10, HalfOps.compare2("GTU", nan << 16 | one, one << 16 | one, false));
        // a subnormal is above zero, flushed it equals zero
        assertEquals(0b01, HalfOps.compare2("GT", denormal, 0x8000, false));
        assertEquals(0b00, HalfOps.compare2("GT", denormal, 0x8000, true));
        assertEquals(0b11, HalfOps.compare2("EQ", denormal << 16 | denormal, 0, true));
    }

    @Test
    void bf16PairsCompareAsBfloat16() {
        int one = 0x3f80, two = 0x4000, nan = 0x7fc0;
        assertEquals(0b01, HalfOps.compare2("LT", one, two, false, true));
        // 0x7e00 is a binary16 NaN but a finite bfloat16 (2^125)
        assertEquals(0b01, HalfOps.compare2("NAN", 0x7e00, one, false, false));
        assertEquals(0b00, HalfOps.compare2("NAN", 0x7e00, one, false, true));
        assertEquals(0b01, HalfOps.compare2("GT", 0x7e00, one, false, true));
        assertEquals(0b10, HalfOps.compare2("NAN", nan << 16 | one, one << 16 | one, false, true));
        // a bfloat16 subnormal (exponent 0) flushed equals zero
        assertEquals(0b11, HalfOps.compare2("EQ", 0x0001, 0x8000, true, true));
        assertEquals(0b10, HalfOps.compare2("EQ", 0x0001, 0x8000, false, true)); // the high halves: 0 = 0
    }

    @Test
    void halfResultsSaturateAndFlush() {
        assertEquals(0x3c00, HalfOps.result(1.5, false, true)); // clamped to 1
        assertEquals(0x0000, HalfOps.result(-0.0, false, true)); // -0 to +0
        assertEquals(0x0000, HalfOps.result(Double.NaN, false, true));
        assertEquals(0x7e00, HalfOps.result(Double.NaN, false, false) & 0x7e00);
        double subnormal = Math.scalb(1.0, -20); // below binary16's smallest normal, 2^-14
        assertEquals(0x0010, HalfOps.result(subnormal, false, false));
        assertEquals(0x0000, HalfOps.result(subnormal, true, false));
        assertEquals(0x8000, HalfOps.result(-subnormal, true, false));
    }

    @Test
    void pairedAtomicAddsEachLaneWithoutCarryOrFlush() {
        // 1 + 1 = 2 in the low lane; the high lane's 65504 + 65504 overflows to +inf without touching the low lane
        assertEquals(0x7c00_4000L, HalfOps.atomicAdd2(0x7bff_3c00L, 0x7bff_3c00L, false));
        // subnormals add as subnormals (.noftz): 2^-24 + 2^-24 = 2^-23
        assertEquals(0x0000_0002L, HalfOps.atomicAdd2(0x0000_0001L, 0x0000_0001L, false));
        // a NaN lane gives the canonical NaN; the other lane adds normally
        assertEquals(0x7fff_4000L, HalfOps.atomicAdd2(0x7e01_3c00L, 0x3c00_3c00L, false));
        // bfloat16 lanes: 1 + 1 = 2 (0x4000), 1 + -1 = +0
        assertEquals(0x0000_4000L, HalfOps.atomicAdd2(0x3f80_3f80L, 0xbf80_3f80L, true));
    }
}
