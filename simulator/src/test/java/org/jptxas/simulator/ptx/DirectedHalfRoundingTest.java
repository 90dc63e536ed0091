package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jptxas.simulator.numeric.Rounding;
import org.junit.jupiter.api.Test;

/** cvt.{rz|rm|rp}.{f16|bf16}: the interpreter's f16/bf16 results follow the asked rounding, not always to nearest. */
class DirectedHalfRoundingTest {
    private static final double X = 1 + Math.scalb(1.0, -10) + Math.scalb(1.0, -11) + Math.scalb(1.0, -12);

    @Test
    void directedRoundingsOfHalf() {
        assertEquals(0x3c02, Values.toHalf(X, false, Rounding.RN));
        assertEquals(0x3c01, Values.toHalf(X, false, Rounding.RZ));
        assertEquals(0x3c01, Values.toHalf(X, false, Rounding.RM));
        assertEquals(0x3c02, Values.toHalf(X, false, Rounding.RP));
        assertEquals(0xbc01, Values.toHalf(-X, false, Rounding.RZ));
        assertEquals(0xbc02, Values.toHalf(-X, false, Rounding.RM));
        assertEquals(0xbc01, Values.toHalf(-X, false, Rounding.RP));
        assertEquals(0x7bff, Values.toHalf(1e6, false, Rounding.RZ)); // past the largest finite: to it
        assertEquals(0x7c00, Values.toHalf(1e6, false, Rounding.RP));
        assertEquals(0x8001, Values.toHalf(-1e-10, false, Rounding.RM)); // below the smallest subnormal
        assertEquals(0x0001, Values.toHalf(1e-10, false, Rounding.RP));
        assertEquals(0xbf81, Values.toHalf(-(1 + Math.scalb(1.0, -7) + Math.scalb(1.0, -8) + Math.scalb(1.0, -9)), true,
                Rounding.RZ));
    }
}
