package org.jptxas.sass;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Floating-point immediates as nvdisasm prints them: C's {@code %.20g} of the exact value below 1e9 in magnitude,
 * C's {@code %.20e} (21 significant digits, trailing zeros kept) from 1e9 on, {@code +INF}, {@code +QNAN}. The 1e9
 * switch was mapped with nvdisasm 12.5 in raw mode: 999999936 prints as an integer, 1e9 and 2^30 in e-form.
 */
public final class FloatText {
    private static final MathContext DIGITS20 = new MathContext(20, RoundingMode.HALF_EVEN);
    private static final MathContext DIGITS21 = new MathContext(21, RoundingMode.HALF_EVEN);
    private static final double EXPONENT_FORM_FROM = 1e9;

    private FloatText() {}

    /** nvdisasm follows these immediates (INF, QNAN, SNAN, negative zero) with a blank before the {@code ;}. */
    public static boolean trailingBlank(String text) {
        return text.endsWith("INF") || text.endsWith("NAN") || text.endsWith("-0.0");
    }

    /**
     * nvdisasm's text of a binary64 immediate: a signalling NaN (quiet bit 51 clear) prints {@code ±SNAN}
     * (nvdisasm 12.5: DSETP.NE.OR P6, P5, R148, +SNAN , !P3 of 0x7ff283db in [63:32]), every other value as
     * {@link #format}. The 32- and 16-bit immediates never print SNAN: nvdisasm widens them, which quiets a NaN
     * (sm_75: MUFU.COS R3, +QNAN of 0x7f800001; HADD2 R4, R6, +QNAN , 1 of the binary16 0x7c01).
     */
    public static String formatBinary64(long bits) {
        double v = Double.longBitsToDouble(bits);
        if (Double.isNaN(v) && (bits & QUIET_BIT) == 0) {
            return (bits < 0 ? "-" : "+") + "SNAN";
        }
        return format(v);
    }

    private static final long QUIET_BIT = 1L << 51;

    /**
     * The high 32 bits of a binary64 the assembler writes for {@code ±SNAN}, or -1 when {@code s} is no such text:
     * every payload bit set, as {@code +QNAN} writes 0x7fffffff (nvdisasm prints no payload).
     */
    static long signallingNanHigh(String s) {
        return switch (s) {
            case "+SNAN", "SNAN" -> 0x7ff7ffffL;
            case "-SNAN" -> 0xfff7ffffL;
            default -> -1;
        };
    }

    /** nvdisasm's text of a floating-point immediate (every NaN a QNAN: see {@link #formatBinary64}). */
    public static String format(double v) {
        if (Double.isNaN(v)) {
            return (Double.doubleToRawLongBits(v) < 0 ? "-" : "+") + "QNAN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+INF" : "-INF";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0.0" : "0";  // nvdisasm 12.5: FFMA R0, R0, R3, -0.0
        }
        if (Math.abs(v) >= EXPONENT_FORM_FROM) {
            BigDecimal e = new BigDecimal(v).round(DIGITS21);
            int exp = e.precision() - e.scale() - 1;
            return e.movePointLeft(exp).setScale(20, RoundingMode.UNNECESSARY).toPlainString() + "e+" + (exp < 10 ? "0" : "") + exp;
        }
        BigDecimal d = new BigDecimal(v).round(DIGITS20);
        int exp = d.precision() - d.scale() - 1; // decimal exponent of the leading digit
        if (exp >= -4 && exp < 20) {
            String s = d.setScale(Math.max(0, 19 - exp), RoundingMode.UNNECESSARY).toPlainString();
            return stripZeros(s);
        }
        BigDecimal unscaled = d.movePointLeft(exp);
        String mant = stripZeros(unscaled.setScale(19, RoundingMode.UNNECESSARY).toPlainString());
        int a = Math.abs(exp);
        return mant + "e" + (exp < 0 ? "-" : "+") + (a < 10 ? "0" : "") + a;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /**
     * The text the assembler takes for a 32-bit NaN field with exactly these bits ({@code -QNAN(0xffc00001)}):
     * nvdisasm prints every NaN as {@code ±QNAN}, which assembles to one canonical NaN, while ptxas keeps a PTX
     * immediate's payload.
     */
    public static String nanAssembly(long bits32) {
        return ((bits32 >>> 31) != 0 ? "-" : "+") + "QNAN(0x" + Long.toHexString(bits32 & 0xffffffffL) + ")";
    }

    /** The field bits {@link #nanAssembly} names, or -1 when {@code s} names none. */
    static long nanBits(String s) {
        int open = s.indexOf("QNAN(0x");
        if (open < 0 || !s.endsWith(")")) {
            return -1;
        }
        return Long.parseLong(s.substring(open + 7, s.length() - 1), 16) & 0xffffffffL;
    }

    /** Parses what {@link #format} prints (and plain decimals); NaN comes back as the canonical quiet NaN. */
    static double parse(String s) {
        switch (s) {
            case "+INF", "INF": return Double.POSITIVE_INFINITY;
            case "-INF": return Double.NEGATIVE_INFINITY;
            case "+QNAN", "QNAN": return Double.NaN;
            case "-QNAN": return Double.longBitsToDouble(0xfff8000000000000L);
            default: return Double.parseDouble(s);
        }
    }

    static double halfToDouble(int h) {
        int sign = (h >> 15) & 1, exp = (h >> 10) & 31, frac = h & 1023;
        double v;
        if (exp == 31) {
            v = frac == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (exp == 0) {
            v = frac * 0x1p-24;
        } else {
            v = (1024 + frac) * Math.scalb(1.0, exp - 25);
        }
        return sign != 0 ? -v : v;
    }

    /** The binary16 encoding of {@code v} if it is exactly representable (or infinite/NaN), else -1. */
    static int doubleToHalfExact(double v) {
        for (int h = 0; h < 0x10000; h++) {
            double d = halfToDouble(h);
            if (Double.isNaN(v) ? Double.isNaN(d) && (h >> 15) == (Double.doubleToRawLongBits(v) < 0 ? 1 : 0) && (h & 0x3ff) == 0x200
                    : Double.compare(d, v) == 0) {
                return h;
            }
        }
        return -1;
    }
}
