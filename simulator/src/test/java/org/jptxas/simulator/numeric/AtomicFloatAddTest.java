package org.jptxas.simulator.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AtomicFloatAddTest {
    @Test
    void aNaNSumIsTheCanonicalNaNWhicheverOperandCarriedAPayload() {
        long negativePayload = 0xfff8000000000001L;
        long positivePayload = 0x7ffba83cb08ffe97L;
        assertEquals(0x7fffffffffffffffL, AtomicFloatAdd.f64(negativePayload, positivePayload));
        assertEquals(0x7fffffffffffffffL, AtomicFloatAdd.f64(positivePayload, negativePayload));
        assertEquals(0x7fffffffffffffffL, AtomicFloatAdd.f64(Double.doubleToRawLongBits(Double.POSITIVE_INFINITY),
                Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY)));
        assertEquals(0x7fffffffL, AtomicFloatAdd.f32(0xffc00001L, 0x7fa00000L));
        assertEquals(0x7fffffffL, AtomicFloatAdd.f32(0x7fa00000L, 0xffc00001L));
    }

    @Test
    void otherSumsAreTheRoundedSum() {
        assertEquals(Double.doubleToRawLongBits(0.1 + 0.2),
                AtomicFloatAdd.f64(Double.doubleToRawLongBits(0.1), Double.doubleToRawLongBits(0.2)));
        assertEquals(Float.floatToRawIntBits(1.5f + -3.25f) & 0xffffffffL,
                AtomicFloatAdd.f32(Float.floatToRawIntBits(1.5f), Float.floatToRawIntBits(-3.25f) & 0xffffffffL));
    }
}
