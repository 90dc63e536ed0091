package org.jptxas.simulator.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Directed rounding of exact values to binary32 and binary64: neighbours, overflow and the subnormal edge. */
class IeeeTest {
    private static final BigDecimal ONE_THIRD = BigDecimal.ONE.divide(BigDecimal.valueOf(3), 60,
            java.math.RoundingMode.HALF_EVEN);

    @Test
    void directedRoundingPicksTheNeighbourOnItsSide() {
        // 1/3 in binary32: nearest 0x3eaaaaab lies above it; in binary64: nearest 0x3fd5555555555555 lies below
        float up = Float.intBitsToFloat(0x3eaaaaab), down = Float.intBitsToFloat(0x3eaaaaaa);
        assertEquals(up, Ieee.roundToFloat(ONE_THIRD, Rounding.RN));
        assertEquals(up, Ieee.roundToFloat(ONE_THIRD, Rounding.RP));
        assertEquals(down, Ieee.roundToFloat(ONE_THIRD, Rounding.RZ));
        assertEquals(down, Ieee.roundToFloat(ONE_THIRD, Rounding.RM));
        BigDecimal minus = ONE_THIRD.negate();
        assertEquals(-down, Ieee.roundToFloat(minus, Rounding.RZ));
        assertEquals(-down, Ieee.roundToFloat(minus, Rounding.RP));
        assertEquals(-up, Ieee.roundToFloat(minus, Rounding.RM));
        double dnear = Double.longBitsToDouble(0x3fd5555555555555L);
        assertEquals(dnear, Ieee.roundToDouble(ONE_THIRD, Rounding.RN));
        assertEquals(Math.nextUp(dnear), Ieee.roundToDouble(ONE_THIRD, Rounding.RP));
        assertEquals(dnear, Ieee.roundToDouble(ONE_THIRD, Rounding.RZ));
        assertEquals(-dnear, Ieee.roundToDouble(minus, Rounding.RP));
        assertEquals(Math.nextDown(-dnear), Ieee.roundToDouble(minus, Rounding.RM));
    }

    @Test
    void overflowGoesToInfinityOnlyInTheRoundingsDirection() {
        BigDecimal huge = new BigDecimal(Double.MAX_VALUE).multiply(BigDecimal.TEN);
        assertEquals(Double.POSITIVE_INFINITY, Ieee.roundToDouble(huge, Rounding.RN));
        assertEquals(Double.MAX_VALUE, Ieee.roundToDouble(huge, Rounding.RZ));
        assertEquals(Double.POSITIVE_INFINITY, Ieee.roundToDouble(huge, Rounding.RP));
        assertEquals(Double.MAX_VALUE, Ieee.roundToDouble(huge, Rounding.RM));
        assertEquals(-Double.MAX_VALUE, Ieee.roundToDouble(huge.negate(), Rounding.RP));
        assertEquals(Double.NEGATIVE_INFINITY, Ieee.roundToDouble(huge.negate(), Rounding.RM));
        BigDecimal hugeF = new BigDecimal(Float.MAX_VALUE).multiply(BigDecimal.TEN);
        assertEquals(Float.MAX_VALUE, Ieee.roundToFloat(hugeF, Rounding.RZ));
        assertEquals(-Float.MAX_VALUE, Ieee.roundToFloat(hugeF.negate(), Rounding.RZ));
        assertEquals(Float.NEGATIVE_INFINITY, Ieee.roundToFloat(hugeF.negate(), Rounding.RN));
    }

    @Test
    void towardZeroBelowTheSmallestSubnormalGivesSignedZero() {
        BigDecimal tiny = new BigDecimal(Float.MIN_VALUE).multiply(new BigDecimal("1.5"));
        assertEquals(Float.MIN_VALUE, Ieee.roundToFloat(tiny, Rounding.RZ));
        assertEquals(2 * Float.MIN_VALUE, Ieee.roundToFloat(tiny, Rounding.RP));
        BigDecimal half = new BigDecimal(Float.MIN_VALUE).divide(BigDecimal.valueOf(4));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(Ieee.roundToFloat(half.negate(),
                Rounding.RZ)));
        assertEquals(Float.MIN_VALUE, Ieee.roundToFloat(half, Rounding.RP));
    }
}
