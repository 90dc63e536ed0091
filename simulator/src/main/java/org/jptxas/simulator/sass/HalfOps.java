package org.jptxas.simulator.sass;

import java.math.BigDecimal;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Half-precision numerics of the compares and conversions: HSETP2/HSET2 per half, F2I from and I2F to binary16.
 * Pure functions on bit patterns; {@link SassMachine} reads the operands (swizzles, negation, |abs|) and writes the
 * results.
 */
final class HalfOps {
    private HalfOps() {}

    /** The half's value, a subnormal flushed to a zero of its sign under {@code .FTZ}. */
    static float value(int half, boolean ftz) {
        half &= 0xffff;
        if (ftz && (half & 0x7c00) == 0) {
            half &= 0x8000;
        }
        return SmallFloats.halfToFloat(half);
    }

    /** One comparison of HSETP2/HSET2/FSETP's sixteen (the unordered ones true when either side is NaN). */
    static boolean compare(String cmp, double a, double b) {
        boolean nan = Double.isNaN(a) || Double.isNaN(b);
        return switch (cmp) {
            case "EQ" -> a == b;
            case "NE" -> a != b && !nan;
            case "LT" -> a < b;
            case "LE" -> a <= b;
            case "GT" -> a > b;
            case "GE" -> a >= b;
            case "EQU" -> a == b || nan;
            case "NEU" -> a != b;
            case "LTU" -> !(a >= b);
            case "LEU" -> !(a > b);
            case "GTU" -> !(a <= b);
            case "GEU" -> !(a < b);
            case "NUM" -> !nan;
            case "NAN" -> nan;
            case "F" -> false;
            case "T" -> true;
            default -> throw new IllegalArgumentException(cmp);
        };
    }

    /**
     * A half result from the exact (or double-rounded) value {@code v}: rounded to nearest; {@code .SAT} clamps to
     * [+0, 1] with NaN giving +0; {@code .FTZ} flushes a subnormal result to a zero of its sign.
     */
    static int result(double v, boolean ftz, boolean sat) {
        if (sat) {
            v = org.jptxas.simulator.numeric.Ieee.saturate(v);
        }
        int h = SmallFloats.toHalf(v) & 0xffff;
        if (ftz && (h & 0x7c00) == 0) {
            h &= 0x8000;
        }
        return h;
    }

    /** The bfloat16's value, a subnormal flushed to a zero of its sign under {@code .FTZ}. */
    static float bf16Value(int bf, boolean ftz) {
        bf &= 0xffff;
        if (ftz && (bf & 0x7f80) == 0) {
            bf &= 0x8000;
        }
        return SmallFloats.bf16ToFloat(bf);
    }

    /** The comparison of each half of two packed pairs: bit 0 the low half's result, bit 1 the high half's. */
    static int compare2(String cmp, int a, int b, boolean ftz) {
        return compare2(cmp, a, b, ftz, false);
    }

    /** {@link #compare2(String, int, int, boolean)} on binary16 or (sm_90's {@code .BF16_V2}) bfloat16 pairs. */
    static int compare2(String cmp, int a, int b, boolean ftz, boolean bf16) {
        int r = 0;
        for (int k = 0; k < 2; k++) {
            int x = a >>> (16 * k), y = b >>> (16 * k);
            if (compare(cmp, bf16 ? bf16Value(x, ftz) : value(x, ftz), bf16 ? bf16Value(y, ftz) : value(y, ftz))) {
                r |= 1 << k;
            }
        }
        return r;
    }

    /**
     * An integer rounded to binary16 in mode {@code r}. Below 2^53 the double is exact, and beyond it every integer
     * overflows the half alike, so {@code toHalf} rounds to nearest once; a directed mode then steps one unit in its
     * direction when the nearest half lies on the other side (an overflow to infinity steps back to the largest
     * finite half, the next half up from it is infinity).
     */
    static int fromInteger(BigDecimal exact, Rounding r) {
        return fromInteger(exact, r, false);
    }

    /** {@link #fromInteger(BigDecimal, Rounding)} to bfloat16 ({@code bf16}, sm_90's I2F.BF16) or binary16. */
    static int fromInteger(BigDecimal exact, Rounding r, boolean bf16) {
        int h = (bf16 ? SmallFloats.toBf16(exact.doubleValue()) : SmallFloats.toHalf(exact.doubleValue())) & 0xffff;
        float back = bf16 ? SmallFloats.bf16ToFloat(h) : SmallFloats.halfToFloat(h);
        int cmp = Float.isInfinite(back) ? (back > 0 ? 1 : -1) : new BigDecimal(back).compareTo(exact);
        boolean negative = (h & 0x8000) != 0;
        // h + 1 grows the magnitude, h - 1 shrinks it; toward +inf grows a positive half and shrinks a negative one
        return switch (r) {
            case RN -> h;
            case RZ -> cmp != 0 && (cmp > 0) != negative ? h - 1 : h;
            case RM -> cmp > 0 ? (negative ? h + 1 : h - 1) : h;
            case RP -> cmp < 0 ? (negative ? h - 1 : h + 1) : h;
        };
    }

    /**
     * ATOM/RED .ADD.F16x2.RN (and .BF16x2.RN): each 16-bit lane added on its own, rounded to nearest, no flush of
     * subnormals (PTX's .noftz); a NaN lane gives the canonical NaN.
     */
    static long atomicAdd2(long old, long v, boolean bf16) {
        long r = 0;
        for (int i = 0; i < 2; i++) {
            int x = (int) (old >>> (16 * i)) & 0xffff, y = (int) (v >>> (16 * i)) & 0xffff;
            double sum = bf16 ? (double) SmallFloats.bf16ToFloat(x) + SmallFloats.bf16ToFloat(y)
                    : (double) SmallFloats.halfToFloat(x) + SmallFloats.halfToFloat(y);
            r |= (long) ((bf16 ? SmallFloats.toBf16(sum) : SmallFloats.toHalf(sum)) & 0xffff) << (16 * i);
        }
        return r;
    }
}
