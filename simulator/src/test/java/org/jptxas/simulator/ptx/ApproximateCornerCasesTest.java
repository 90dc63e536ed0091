package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Approximate forms where the PTX ISA fixes the result: rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 compute from
 * a's upper word only and write d's upper word, the lower zero, with the ISA's corner cases (a subnormal input is a
 * zero of its sign, -subnormal giving -Inf; a NaN is 0x7fffffff00000000); div.approx.f32 by a divisor above 2^126 is a
 * zero.
 */
class ApproximateCornerCasesTest {
    static long approx(boolean rcp, double x) {
        return ArithmeticCompiler.highWordApproximation(rcp, Double.doubleToRawLongBits(x));
    }

    @Test
    void upperWordInUpperWordOut() {
        assertEquals(Double.doubleToRawLongBits(0.5), approx(true, 2.0));
        // the input's lower word is not read: 1 + 2^-40 gives 1/1 exactly
        assertEquals(Double.doubleToRawLongBits(1.0), approx(true, 1 + 0x1p-40));
        assertEquals(Double.doubleToRawLongBits(0.5), approx(false, 4.0));
        assertEquals(0L, approx(true, 3.0) & 0xffffffffL);
    }

    @Test
    void cornerCasesOfTheIsa() {
        assertEquals(Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY), approx(true, -Double.MIN_VALUE * 5e10));
        assertEquals(Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), approx(false, Double.MIN_VALUE * 5e10));
        assertEquals(Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY), approx(false, -0.0));
        assertEquals(0x7fffffff00000000L, approx(true, Double.longBitsToDouble(0xfff8000000000123L)));
        assertEquals(0x7fffffff00000000L, approx(false, -1.0));
        assertEquals(0L, approx(false, Double.POSITIVE_INFINITY));
        assertEquals(0L, approx(true, Double.MAX_VALUE) & 0x7fffffffffffffffL); // 1/MAX is subnormal: flushed
    }

    @Test
    void approximateDivisionByHugeDivisorsIsZero() {
        // div.approx.f32: for 2^126 < |b| < 2^128 a sign-preserving zero, NaN for an infinite a
        assertEquals(0x80000000, Float.floatToRawIntBits(ArithmeticCompiler.approxDiv(1e30f, -0x1.8p126f)));
        assertEquals(0x00000000, Float.floatToRawIntBits(ArithmeticCompiler.approxDiv(-1e30f, -0x1.8p126f)));
        assertEquals(true, Float.isNaN(ArithmeticCompiler.approxDiv(Float.POSITIVE_INFINITY, 0x1.8p126f)));
        assertEquals(0.5f, ArithmeticCompiler.approxDiv(1f, 2f));
        assertEquals(0.0f, ArithmeticCompiler.approxDiv(1f, Float.POSITIVE_INFINITY));
    }
}
