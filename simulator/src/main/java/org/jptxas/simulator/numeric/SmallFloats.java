package org.jptxas.simulator.numeric;

/**
 * Conversions between Java's binary32/binary64 and the 16-bit formats of PTX ({@code .f16} = IEEE binary16,
 * {@code .bf16} = bfloat16), round-to-nearest-even, with subnormals and PTX's canonical NaN ({@code 0x7fff}).
 */
public final class SmallFloats {
    private SmallFloats() {}

    /** PTX's canonical NaN for both f16 and bf16. */
    public static final int CANONICAL_NAN16 = 0x7fff;

    /** binary16 layout: 5 exponent bits, 10 fraction bits. */
    public static int toHalf(double value) {
        return round(value, 5, 10);
    }

    /** bfloat16 layout: 8 exponent bits, 7 fraction bits. */
    public static int toBf16(double value) {
        return round(value, 8, 7);
    }

    public static float halfToFloat(int bits) {
        return (float) widen(bits, 5, 10);
    }

    public static float bf16ToFloat(int bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    /** Two 8-bit floats (b's low bytes: byte 1 high, byte 0 low) widened to an f16 pair; see {@link #fp8ToHalf}. */
    public static int fp8ToHalfPair(int pair, boolean e4m3, boolean relu) {
        return fp8ToHalf(pair >>> 8 & 0xff, e4m3, relu) << 16 | fp8ToHalf(pair & 0xff, e4m3, relu);
    }

    /**
     * {@code v} rounded to f16 or bf16 as {@code r} asks (null: to nearest): the nearest value, moved one step when it
     * lies on the wrong side of {@code v} for a directed rounding (past the largest finite value, to it).
     */
    public static int toHalf(double v, boolean bf16, Rounding r) {
        int h = bf16 ? toBf16(v) : toHalf(v);
        if (r == null || r == Rounding.RN || Double.isNaN(v)) {
            return h;
        }
        double back = bf16 ? bf16ToFloat(h) : halfToFloat(h);
        boolean down = back > v && (r == Rounding.RM || r == Rounding.RZ && v > 0);
        boolean up = back < v && (r == Rounding.RP || r == Rounding.RZ && v < 0);
        boolean negative = (h & 0x8000) != 0;
        int magnitude = h & 0x7fff;
        if (down) {
            return negative ? h + 1 : magnitude == 0 ? 0x8001 : h - 1;
        }
        if (up) {
            return !negative ? h + 1 : magnitude == 0 ? 0x0001 : h - 1;
        }
        return h;
    }

    /**
     * An 8-bit float widened to binary16 (exact: every e4m3 and e5m2 value is a binary16 value); NaN becomes the
     * canonical 0x7fff, and with {@code relu} a negative value 0.
     */
    public static int fp8ToHalf(int bits, boolean e4m3, boolean relu) {
        double v;
        if (e4m3) {
            int exp = bits >>> 3 & 0xf, frac = bits & 7;
            v = (bits & 0x7f) == 0x7f ? Double.NaN
                    : exp == 0 ? Math.scalb((double) frac, -9) : Math.scalb((double) (8 | frac), exp - 10);
            v = (bits & 0x80) != 0 ? -v : v;
        } else {
            v = widen(bits, 5, 2);
        }
        if (Double.isNaN(v)) {
            return 0x7fff;
        }
        return relu && v < 0 ? 0 : toHalf(v);
    }

    /**
     * An f32 (raw bits) rounded to tf32 (10 fraction bits, the 13 low bits clear), to nearest even or toward zero;
     * a carry may reach infinity; a NaN becomes the canonical 0x7fffffff. With {@code relu} a negative value is +0 (-0
     * is not negative and stays).
     */
    public static int toTf32(int bits, boolean towardZero, boolean relu) {
        if ((bits & 0x7fffffff) > 0x7f800000) {
            return 0x7fffffff;
        }
        if (relu && bits < 0 && bits != 0x80000000) {
            return 0;
        }
        if ((bits & 0x7fffffff) == 0x7f800000 || towardZero) {
            return bits & 0xffffe000;
        }
        return bits + 0xfff + (bits >>> 13 & 1) & 0xffffe000;
    }

    /**
     * An 8-bit float, round-to-nearest-even with saturation to the largest finite value ({@code .satfinite}, the only
     * rounding PTX allows for fp8): {@code e4m3} (bias 7, no infinities, 0x7f NaN, largest 448) or {@code e5m2}
     * (binary16's exponent, largest 57344); NaN becomes 0x7f.
     */
    public static int toFp8Satfinite(double value, boolean e4m3) {
        if (Double.isNaN(value)) {
            return 0x7f;
        }
        int sign = Double.doubleToRawLongBits(value) < 0 ? 0x80 : 0;
        int fracBits = e4m3 ? 3 : 2;
        int bias = e4m3 ? 7 : 15;
        int largest = e4m3 ? 0x7e : 0x7b;
        double a = Math.abs(value);
        if (Double.isInfinite(a)) {
            return sign | largest;
        }
        int minNormalExp = 1 - bias;
        if (a < Math.scalb(1.0, minNormalExp)) {
            return sign | (int) Math.rint(Math.scalb(a, fracBits - minNormalExp));
        }
        int e = Math.getExponent(a);
        long q = (long) Math.rint(Math.scalb(a, fracBits - e));
        if (q == 2L << fracBits) {
            e++;
            q = 1L << fracBits;
        }
        long code = ((long) (e + bias) << fracBits) | (q - (1L << fracBits));
        return sign | (int) Math.min(code, largest);
    }

    /** Rounds {@code value} to a binary format with {@code expBits} exponent and {@code fracBits} fraction bits. */
    static int round(double value, int expBits, int fracBits) {
        if (Double.isNaN(value)) {
            return CANONICAL_NAN16;
        }
        int sign = Double.doubleToRawLongBits(value) < 0 ? 1 << (expBits + fracBits) : 0;
        double a = Math.abs(value);
        int bias = (1 << (expBits - 1)) - 1;
        int maxExp = (1 << expBits) - 1;
        int infinity = maxExp << fracBits;
        if (Double.isInfinite(a)) {
            return sign | infinity;
        }
        int minNormalExp = 1 - bias;
        if (a < Math.scalb(1.0, minNormalExp)) {
            // Subnormal: an integer multiple of 2^(minNormalExp - fracBits); scaling by a power of two is exact,
            // and rint rounds half to even. A result of 1 << fracBits is exactly the smallest normal.
            long q = (long) Math.rint(Math.scalb(a, fracBits - minNormalExp));
            return sign | (int) q;
        }
        int e = Math.getExponent(a);
        long q = (long) Math.rint(Math.scalb(a, fracBits - e));
        if (q == 2L << fracBits) {
            e++;
            q = 1L << fracBits;
        }
        if (e + bias >= maxExp) {
            return sign | infinity;
        }
        return sign | ((e + bias) << fracBits) | (int) (q - (1L << fracBits));
    }

    static double widen(int bits, int expBits, int fracBits) {
        int signBit = 1 << (expBits + fracBits);
        int maxExp = (1 << expBits) - 1;
        int bias = maxExp >> 1;
        int exp = (bits >>> fracBits) & maxExp;
        int frac = bits & ((1 << fracBits) - 1);
        double magnitude;
        if (exp == maxExp) {
            magnitude = frac == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (exp == 0) {
            magnitude = Math.scalb((double) frac, 1 - bias - fracBits);
        } else {
            magnitude = Math.scalb((double) (frac | (1 << fracBits)), exp - bias - fracBits);
        }
        return (bits & signBit) != 0 ? -magnitude : magnitude;
    }
}
