package org.jptxas.frontend.ptx.lower;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.PtxType;

/** Float literal conversions to the bit patterns of f16, bf16, f32 and f64 (round to nearest even). */
final class FloatBits {
    private FloatBits() {}

    /** The literal's raw bits as written (for bit types: {@code mov.b32 %r, 0f3F800000}). */
    static long rawBits(Expr.FloatLit f) {
        return f.form() == Expr.FloatForm.HEX_F32 ? f.bits() & 0xffffffffL : f.bits();
    }

    static long convert(Expr.FloatLit f, PtxType type) {
        if (f.form() == Expr.FloatForm.HEX_F32 && type == PtxType.F32) {
            return f.bits() & 0xffffffffL;
        }
        if (f.form() == Expr.FloatForm.HEX_F64 && type == PtxType.F64) {
            return f.bits();
        }
        return ofDouble(f.value(), type);
    }

    static long ofDouble(double v, PtxType type) {
        return switch (type) {
            case F64 -> Double.doubleToRawLongBits(v);
            case F32 -> Float.floatToRawIntBits((float) v) & 0xffffffffL;
            case F16 -> f16(v);
            case BF16 -> bf16((float) v);
            default -> Double.doubleToRawLongBits(v);
        };
    }

    static long fromInteger(long v, PtxType type) {
        return ofDouble((double) v, type);
    }

    static long negate(long bits, PtxType type) {
        return switch (type) {
            case F64 -> bits ^ Long.MIN_VALUE;
            case F32 -> bits ^ 0x80000000L;
            default -> bits ^ 0x8000L;
        };
    }

    /** IEEE binary16 of {@code v}, rounded to nearest even from the double (no double rounding through float). */
    static long f16(double v) {
        long sign = Double.doubleToRawLongBits(v) < 0 ? 0x8000 : 0;
        double a = Math.abs(v);
        if (Double.isNaN(v)) {
            return 0x7e00;
        }
        if (a >= 65520.0) {
            return sign | 0x7c00;
        }
        if (a < 0x1p-14) {
            long m = Math.round(Math.rint(a * 0x1p24));
            return sign | m;
        }
        int exp = Math.getExponent(a);
        double scaled = a * Math.pow(2, 10 - exp);
        long m = (long) Math.rint(scaled);
        if (m == 2048) {
            m = 1024;
            exp++;
        }
        if (exp > 15) {
            return sign | 0x7c00;
        }
        return sign | ((long) (exp + 15) << 10) | (m - 1024);
    }

    private static long bf16(float f) {
        int b = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return ((b >>> 16) | 0x40) & 0xffffL;
        }
        int rounded = b + 0x7fff + ((b >>> 16) & 1);
        return (rounded >>> 16) & 0xffffL;
    }
}
