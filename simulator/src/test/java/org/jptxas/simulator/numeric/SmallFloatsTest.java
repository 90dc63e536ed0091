package org.jptxas.simulator.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jptxas.testing.kernels.RefMath;
import org.junit.jupiter.api.Test;

class SmallFloatsTest {
    @Test
    void everyHalfAndBf16RoundTripsThroughFloat() {
        for (int bits = 0; bits < 0x10000; bits++) {
            float h = SmallFloats.halfToFloat(bits);
            int expectH = Float.isNaN(h) ? SmallFloats.CANONICAL_NAN16 : bits;
            assertEquals(expectH, SmallFloats.toHalf(h), "half 0x" + Integer.toHexString(bits));
            float b = SmallFloats.bf16ToFloat(bits);
            int expectB = Float.isNaN(b) ? SmallFloats.CANONICAL_NAN16 : bits;
            assertEquals(expectB, SmallFloats.toBf16(b), "bf16 0x" + Integer.toHexString(bits));
        }
    }

    @Test
    void roundsHalfwayCasesToEvenAndAgreesWithTheSuiteReference() {
        assertEquals(0x3c00, SmallFloats.toHalf(1.0 + 0x1p-11)); // tie, even stays
        assertEquals(0x3c02, SmallFloats.toHalf(1.0 + 3 * 0x1p-11)); // tie, rounds up to even
        assertEquals(0x0001, SmallFloats.toHalf(0x1p-24));
        assertEquals(0x0000, SmallFloats.toHalf(0x1p-25)); // tie to even zero
        assertEquals(0x0400, SmallFloats.toHalf(0x1p-14 - 0x1p-26)); // rounds up into the smallest normal
        assertEquals(0x7c00, SmallFloats.toHalf(65520.0));
        assertEquals(0x7bff, SmallFloats.toHalf(65519.0));
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 200_000; i++) {
            double d = Math.scalb(r.nextDouble() * (r.nextBoolean() ? 1 : -1), r.nextInt(60) - 40);
            assertEquals(RefMath.toHalf(d) & 0xffff, SmallFloats.toHalf(d), "toHalf(" + d + ")");
            assertEquals(RefMath.toBf16(d) & 0xffff, SmallFloats.toBf16(d), "toBf16(" + d + ")");
        }
    }
}
