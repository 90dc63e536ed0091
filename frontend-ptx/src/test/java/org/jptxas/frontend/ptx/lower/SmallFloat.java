package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;

/** Reference f16/bf16 conversions with every rounding mode (test oracle). */
final class SmallFloat {
    private SmallFloat() {
    }

    /** Rounds {@code x} to a binary format with {@code mant} stored fraction bits and {@code expBits} exponent bits. */
    static int round(double x, int mant, int expBits, OriEvaluator.Rnd m) {
        int bias = (1 << (expBits - 1)) - 1;
        int sign = (Double.doubleToRawLongBits(x) >>> 63) != 0 ? 1 << (mant + expBits) : 0;
        int infBits = ((1 << expBits) - 1) << mant;
        if (Double.isNaN(x)) {
            return (1 << (mant + expBits)) - 1; // canonical NaN: all ones but the sign (0x7fff)
        }
        double ax = Math.abs(x);
        if (Double.isInfinite(ax)) {
            return sign | infBits;
        }
        if (ax == 0) {
            return sign;
        }
        int e = Math.getExponent(ax);
        int emin = 1 - bias;
        int q = Math.max(e, emin) - mant; // the exponent of the last kept bit
        BigDecimal scaled = new BigDecimal(ax).multiply(new BigDecimal(Math.scalb(1.0, -q)));
        java.math.BigInteger whole = scaled.toBigInteger();
        BigDecimal frac = scaled.subtract(new BigDecimal(whole));
        long n = whole.longValueExact();
        int cmpHalf = frac.compareTo(new BigDecimal("0.5"));
        boolean neg = sign != 0;
        boolean up = switch (m) {
            case RN -> cmpHalf > 0 || (cmpHalf == 0 && (n & 1) != 0);
            case RZ -> false;
            case RM -> neg && frac.signum() != 0;
            case RP -> !neg && frac.signum() != 0;
        };
        if (up) {
            n++;
        }
        // n * 2^q; encode
        long bits;
        if (q == emin - mant) {
            bits = n; // denormal or (when n reaches 2^mant) the smallest normal
        } else {
            int exp = q + mant + bias;
            if (n >= (2L << mant)) {
                n >>= 1;
                exp++;
            }
            bits = ((long) exp << mant) | (n & ((1L << mant) - 1));
        }
        if (bits >= infBits) {
            boolean toMax = m == OriEvaluator.Rnd.RZ || (m == OriEvaluator.Rnd.RM && !neg) || (m == OriEvaluator.Rnd.RP && neg);
            bits = toMax ? infBits - 1 : infBits;
        }
        return sign | (int) bits;
    }

    static int toHalf(double x, OriEvaluator.Rnd m) {
        return round(x, 10, 5, m);
    }

    static int toBf16(double x, OriEvaluator.Rnd m) {
        return round(x, 7, 8, m);
    }

    static float halfToFloat(int bits) {
        int sign = bits >>> 15 & 1, exp = bits >>> 10 & 0x1f, mant = bits & 0x3ff;
        float v;
        if (exp == 0x1f) {
            v = mant == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        } else if (exp == 0) {
            v = mant * 0x1p-24f;
        } else {
            v = Math.scalb(1f + mant / 1024f, exp - 15);
        }
        return sign != 0 ? -v : v;
    }
}
