package org.jptxas.simulator.sass;

import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Packed-lane numerics outside HalfOps' compares: HMNMX2 (f16 and bf16 pairs, with or without {@code .NAN}), HFMA2's
 * bf16 form and I2IP (cvt.pack's saturating pack of two s32 into narrow lanes). Pure functions on bit patterns;
 * {@link SassMachine} reads the operands and writes the results.
 */
final class PackedOps {
    private PackedOps() {}

    /** The canonical NaN of binary16 and of bfloat16 alike (what min/max/fma give for a NaN result). */
    static final int CANONICAL_NAN = 0x7fff;

    static double lane(int bits, boolean bf16) {
        bits &= 0xffff;
        return bf16 ? SmallFloats.bf16ToFloat(bits) : SmallFloats.halfToFloat(bits);
    }

    private static int round(double v, boolean bf16) {
        if (Double.isNaN(v)) {
            return CANONICAL_NAN;
        }
        return (bf16 ? SmallFloats.toBf16(v) : SmallFloats.toHalf(v)) & 0xffff;
    }

    /**
     * HMNMX2 d, a, b, Pp (Pp true: minimum), per lane as PTX's min/max on f16/bf16 define it: a NaN operand gives
     * the other operand, two NaNs the canonical NaN; with {@code .NAN} any NaN operand gives the canonical NaN.
     * -0 is below +0. The chosen operand is returned bit for bit.
     */
    static int minMax2(int a, int b, boolean min, boolean nan, boolean bf16) {
        int r = 0;
        for (int k = 0; k < 2; k++) {
            int x = a >>> (16 * k) & 0xffff, y = b >>> (16 * k) & 0xffff;
            double p = lane(x, bf16), q = lane(y, bf16);
            int z;
            if (Double.isNaN(p) || Double.isNaN(q)) {
                z = nan || (Double.isNaN(p) && Double.isNaN(q)) ? CANONICAL_NAN : Double.isNaN(p) ? y : x;
            } else {
                double m = min ? Math.min(p, q) : Math.max(p, q);
                z = Double.compare(m, p) == 0 ? x : y;
            }
            r |= z << (16 * k);
        }
        return r;
    }

    /** .FTZ on a pair: each subnormal lane becomes a zero of its sign. */
    static int flushSubnormals(int pair, boolean bf16) {
        int exponent = bf16 ? 0x7f80 : 0x7c00;
        int r = 0;
        for (int k = 0; k < 2; k++) {
            int x = pair >>> (16 * k) & 0xffff;
            r |= ((x & exponent) == 0 ? x & 0x8000 : x) << (16 * k);
        }
        return r;
    }

    /** .XORSIGN on a pair: each lane that is not NaN takes the sign bit of {@code signs}' lane. */
    static int xorSigns(int pair, int signs, boolean bf16) {
        int r = 0;
        for (int k = 0; k < 2; k++) {
            int x = pair >>> (16 * k) & 0xffff;
            if (!Double.isNaN(lane(x, bf16))) {
                x = x & 0x7fff | signs >>> (16 * k) & 0x8000;
            }
            r |= x << (16 * k);
        }
        return r;
    }

    /**
     * HFMA2.BF16_V2 d, a, b, c: per lane {@code a * b + c} rounded once to bfloat16, nearest even (the product of two
     * bfloat16s is exact in a double and the double fma rounds the sum once before the narrowing).
     */
    static int fma2Bf16(int a, int b, int c, boolean relu) {
        int r = 0;
        for (int k = 0; k < 2; k++) {
            double v = Math.fma(lane(a >>> (16 * k), true), lane(b >>> (16 * k), true), lane(c >>> (16 * k), true));
            if (relu && !Double.isNaN(v) && v < 0) {
                v = 0;
            }
            r |= round(v, true) << (16 * k);
        }
        return r;
    }

    /**
     * HFMA2's .OOB: a lane where a, b or c holds the 16-bit out-of-bounds NaN (0x7fff, a tensor load's fill) is +0
     * (as the interpreter's fma.oob; the PTX ISA's rule, not observed on a GPU here).
     */
    static int oobClamp(int r, int a, int b, int c) {
        for (int k = 0; k < 2; k++) {
            int s = 16 * k;
            if ((a >>> s & 0xffff) == 0x7fff || (b >>> s & 0xffff) == 0x7fff || (c >>> s & 0xffff) == 0x7fff) {
                r &= ~(0xffff << s);
            }
        }
        return r;
    }

    /** F2IP's lane: x rounded to an integer, NaN as 0, clamped to 0..255. */
    static int floatToUnsignedByte(float x, org.jptxas.simulator.numeric.Rounding r) {
        if (Float.isNaN(x)) {
            return 0;
        }
        double v = switch (r) {
            case RZ -> x < 0 ? Math.ceil(x) : Math.floor(x);
            case RM -> Math.floor(x);
            case RP -> Math.ceil(x);
            default -> Math.rint(x);
        };
        return (int) Math.max(0, Math.min(255, v));
    }

    /**
     * I2IP.{U2,S2,U4,S4,U8,S8,U16,S16}.S32.SAT d, a, b, c (cvt.pack.sat): a and b clamped to the narrow type's range,
     * b in the low lane and a above it; the 2-, 4- and 8-bit forms fill the bits above the pair with c's low bits
     * (nvdisasm's c.28 and c.24 name how many).
     */
    static int packSaturated(int a, int b, int c, int bits, boolean signed) {
        long max = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
        long min = signed ? -(1L << (bits - 1)) : 0;
        long mask = (1L << bits) - 1;
        long ta = Math.max(min, Math.min(max, a)) & mask;
        long tb = Math.max(min, Math.min(max, b)) & mask;
        long d = ta << bits | tb;
        if (bits < 16) {
            d |= (long) c << (2 * bits);
        }
        return (int) d;
    }
}
