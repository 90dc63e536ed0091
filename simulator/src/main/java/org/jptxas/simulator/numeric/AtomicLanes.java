package org.jptxas.simulator.numeric;

/**
 * The lane arithmetic of the vector atomics ({@code atom/red .v2/.v4/.v8} on f32, f16, bf16 and their pairs; SASS
 * {@code ATOM/ATOMG/REDG .F32x2/.F32x4/.F16x4/.BF16x8...}), one 32-bit word of the vector at a time, shared by the
 * interpreter and the SASS emulator. Adds round to nearest without flushing, as the scalar atomics do; min/max
 * return the number when one lane is NaN and the canonical NaN when both are, and order -0 below +0.
 */
public final class AtomicLanes {
    /** The element type of a lane. */
    public enum Lane { F32, F16, BF16 }

    /** The operation. */
    public enum Op { ADD, MIN, MAX }

    private AtomicLanes() {
    }

    /** {@code old op value} on the lanes of one 32-bit word. */
    public static int combine(Op op, Lane lane, int old, int value) {
        if (lane == Lane.F32) {
            if (op != Op.ADD) {
                throw new IllegalArgumentException("f32 vector atomics only add");
            }
            return (int) AtomicFloatAdd.f32(old, value);
        }
        boolean bf16 = lane == Lane.BF16;
        int r = 0;
        for (int i = 0; i < 2; i++) {
            int x = old >>> (16 * i) & 0xffff;
            int y = value >>> (16 * i) & 0xffff;
            r |= (half(op, bf16, x, y) & 0xffff) << (16 * i);
        }
        return r;
    }

    private static int half(Op op, boolean bf16, int x, int y) {
        float a = bf16 ? SmallFloats.bf16ToFloat(x) : SmallFloats.halfToFloat(x);
        float b = bf16 ? SmallFloats.bf16ToFloat(y) : SmallFloats.halfToFloat(y);
        if (op == Op.ADD) {
            double sum = (double) a + b;
            return bf16 ? SmallFloats.toBf16(sum) : SmallFloats.toHalf(sum);
        }
        if (Float.isNaN(a) || Float.isNaN(b)) {
            return Float.isNaN(a) && Float.isNaN(b) ? SmallFloats.CANONICAL_NAN16 : Float.isNaN(a) ? y : x;
        }
        if (a == b) { // -0 and +0: min takes the negative one, max the positive
            boolean xNeg = (x & 0x8000) != 0;
            return op == Op.MIN == xNeg ? x : y;
        }
        return op == Op.MIN == a < b ? x : y;
    }
}
