package org.jptxas.testing.kernels;

import java.math.BigDecimal;

/**
 * Reference arithmetic that Java lacks: binary16/bfloat16 rounding, directed rounding of exact results to binary32,
 * and the bit-field instructions as the PTX ISA defines them. Written independently of the simulator on purpose:
 * the references must not share the simulator's mistakes.
 */
public final class RefMath {
    private RefMath() {}

    /** IEEE rounding directions. */
    public enum Rounding { RN, RZ, RU, RD }

    /** Round-to-nearest-even to binary16 (NaN to the canonical 0x7fff). */
    public static short toHalf(double v) {
        return (short) toSmall(v, 5, 10);
    }

    public static short toBf16(double v) {
        return (short) toSmall(v, 8, 7);
    }

    public static float halfToFloat(int bits) {
        int exp = (bits >>> 10) & 0x1f;
        int frac = bits & 0x3ff;
        double mag = exp == 31 ? (frac == 0 ? Double.POSITIVE_INFINITY : Double.NaN)
                : exp == 0 ? frac * 0x1p-24 : (frac | 0x400) * Math.pow(2, exp - 25);
        return (float) ((bits & 0x8000) != 0 ? -mag : mag);
    }

    public static float bf16ToFloat(int bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    private static int toSmall(double v, int expBits, int fracBits) {
        if (Double.isNaN(v)) {
            return 0x7fff;
        }
        int sign = Double.doubleToRawLongBits(v) < 0 ? 1 << (expBits + fracBits) : 0;
        int maxBiased = (1 << expBits) - 1;
        double a = Math.abs(v);
        if (Double.isInfinite(a)) {
            return sign | (maxBiased << fracBits);
        }
        int bias = maxBiased >> 1;
        int eMin = 1 - bias;
        int e = Math.getExponent(a);
        // The value is q * 2^(max(e, eMin) - fracBits); scaling by a power of two is exact, rint ties to even.
        long q = (long) Math.rint(Math.scalb(a, fracBits - Math.max(e, eMin)));
        if (e < eMin) {
            return sign | (int) q; // subnormal; q == 1 << fracBits is exactly the smallest normal
        }
        if (q == 2L << fracBits) {
            e++;
            q = 1L << fracBits;
        }
        int biased = e + bias;
        if (biased >= maxBiased) {
            return sign | (maxBiased << fracBits);
        }
        return sign | (biased << fracBits) | (int) (q - (1L << fracBits));
    }

    /** The binary32 value of an exact real {@code v} (non-zero) rounded in direction {@code r}. */
    public static float round(BigDecimal v, Rounding r) {
        float n = v.floatValue(); // correctly rounded to nearest
        int signum = v.signum();
        if (Float.isInfinite(n)) {
            return switch (r) {
                case RN -> n;
                case RZ -> signum > 0 ? Float.MAX_VALUE : -Float.MAX_VALUE;
                case RU -> signum > 0 ? n : -Float.MAX_VALUE;
                case RD -> signum > 0 ? Float.MAX_VALUE : n;
            };
        }
        int cmp = new BigDecimal(n).compareTo(v);
        if (cmp == 0 || r == Rounding.RN) {
            return n;
        }
        return switch (r) {
            case RZ -> (signum > 0) == (cmp > 0) ? Math.nextAfter(n, 0.0) : n;
            case RU -> cmp < 0 ? Math.nextUp(n) : n;
            case RD -> cmp > 0 ? Math.nextDown(n) : n;
            case RN -> n;
        };
    }

    /** {@code x + y} rounded in direction {@code r} (exact zero gets -0 only when rounding down, as IEEE says). */
    public static float add(float x, float y, Rounding r) {
        if (Float.isNaN(x) || Float.isNaN(y) || Float.isInfinite(x) || Float.isInfinite(y)) {
            return x + y;
        }
        BigDecimal s = new BigDecimal(x).add(new BigDecimal(y));
        if (s.signum() == 0) {
            boolean xNeg = Float.floatToRawIntBits(x) < 0, yNeg = Float.floatToRawIntBits(y) < 0;
            if (x == 0 && y == 0 && xNeg == yNeg) {
                return x; // (+0)+(+0) and (-0)+(-0) keep their sign
            }
            return r == Rounding.RD ? -0.0f : 0.0f;
        }
        return round(s, r);
    }

    public static float mul(float x, float y, Rounding r) {
        if (Float.isNaN(x) || Float.isNaN(y) || Float.isInfinite(x) || Float.isInfinite(y) || x == 0 || y == 0) {
            return x * y;
        }
        return round(new BigDecimal(x).multiply(new BigDecimal(y)), r);
    }

    public static float fma(float x, float y, float z, Rounding r) {
        if (Float.isNaN(x) || Float.isNaN(y) || Float.isNaN(z) || Float.isInfinite(x) || Float.isInfinite(y)
                || Float.isInfinite(z) || x == 0 || y == 0) {
            return Math.fma(x, y, z);
        }
        BigDecimal s = new BigDecimal(x).multiply(new BigDecimal(y)).add(new BigDecimal(z));
        if (s.signum() == 0) {
            return r == Rounding.RD ? -0.0f : 0.0f;
        }
        return round(s, r);
    }

    /** {@code prmt.b32} in its default mode: selector nibbles pick bytes of {b:a}; bit 3 of a nibble replicates the sign. */
    public static int prmt(int a, int b, int selector) {
        long pool = (Integer.toUnsignedLong(b) << 32) | Integer.toUnsignedLong(a);
        int d = 0;
        for (int i = 0; i < 4; i++) {
            int sel = (selector >>> (4 * i)) & 0xf;
            int byteVal = (int) (pool >>> (8 * (sel & 7))) & 0xff;
            if ((sel & 8) != 0) {
                byteVal = (byteVal & 0x80) != 0 ? 0xff : 0;
            }
            d |= byteVal << (8 * i);
        }
        return d;
    }

    /** {@code bfe.u32} / {@code bfe.s32}. */
    public static int bfe(int a, int posArg, int lenArg, boolean signed) {
        int pos = posArg & 0xff, len = lenArg & 0xff;
        int sbit = 0;
        if (signed && len != 0) {
            sbit = (a >>> Math.min(pos + len - 1, 31)) & 1;
        }
        int d = 0;
        for (int i = 0; i < 32; i++) {
            int bit = i < len && pos + i <= 31 ? (a >>> (pos + i)) & 1 : sbit;
            d |= bit << i;
        }
        return d;
    }

    /** {@code bfi.b32 d, a, b, pos, len}: {@code b} with {@code len} low bits of {@code a} inserted at {@code pos}. */
    public static int bfi(int a, int b, int posArg, int lenArg) {
        int pos = posArg & 0xff, len = lenArg & 0xff;
        int f = b;
        for (int i = 0; i < len && pos + i <= 31; i++) {
            int bit = (a >>> i) & 1;
            f = (f & ~(1 << (pos + i))) | (bit << (pos + i));
        }
        return f;
    }

    /** The source lane of {@code shfl.sync} (PTX ISA pseudo-code), or {@code lane} itself when out of the segment. */
    public static int shflSource(String mode, int lane, int b, int c) {
        int bval = b & 0x1f, cval = c & 0x1f, segmask = (c >>> 8) & 0x1f;
        int maxLane = (lane & segmask) | (cval & ~segmask);
        int minLane = lane & segmask;
        int j;
        boolean ok;
        switch (mode) {
            case "up" -> { j = lane - bval; ok = j >= maxLane; }
            case "down" -> { j = lane + bval; ok = j <= maxLane; }
            case "bfly" -> { j = lane ^ bval; ok = j <= maxLane; }
            case "idx" -> { j = minLane | (bval & ~segmask); ok = j <= maxLane; }
            default -> throw new IllegalArgumentException(mode);
        }
        return ok ? j : lane;
    }

    /** High 64 bits of the unsigned 128-bit product (Java 17 lacks Math.unsignedMultiplyHigh). */
    public static long unsignedMultiplyHigh(long x, long y) {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }
}
