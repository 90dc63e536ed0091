package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.numeric.SmallFloats;

/** Bit-level helpers: extension by type, register writes, float views of raw bits. */
final class Values {
    private Values() {}

    static long mask(int bytes) {
        return bytes >= 8 ? -1L : (1L << (8 * bytes)) - 1;
    }

    static boolean isSigned(PtxType t) {
        return t == PtxType.S8 || t == PtxType.S16 || t == PtxType.S32 || t == PtxType.S64;
    }

    static boolean isFloat(PtxType t) {
        return t == PtxType.F16 || t == PtxType.F16X2 || t == PtxType.BF16 || t == PtxType.BF16X2 || t == PtxType.F32
                || t == PtxType.F64 || t == PtxType.TF32;
    }

    static long sext(long v, int bytes) {
        int sh = 64 - 8 * bytes;
        return bytes >= 8 ? v : (v << sh) >> sh;
    }

    /** The value of raw bits as the integer type says: sign- or zero-extended to 64 bits. */
    static long ext(long v, PtxType t) {
        int size = Math.max(1, t.sizeBytes());
        return isSigned(t) ? sext(v, size) : v & mask(size);
    }

    static void write(ThreadState t, int reg, long v) {
        if (reg >= 0) {
            t.frame.regs[reg] = v & t.frame.function.registerMask[reg];
        }
    }

    static float f32(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static long bits(float f) {
        if (f != f) {
            return Ieee.CANONICAL_NAN32;
        }
        return Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    static double f64(long bits) {
        return Double.longBitsToDouble(bits);
    }

    static long bits(double d) {
        if (d != d) {
            return Ieee.CANONICAL_NAN64;
        }
        return Double.doubleToRawLongBits(d);
    }

    /**
     * fma's .oob: whether a lane of a, b or c is the 16-bit out-of-bounds NaN a tensor load fills with (0x7fff, the
     * canonical NaN); the lane's result is then +0.
     */
    static boolean oobNaN16(long a, long b, long c) {
        return (a & 0xffff) == 0x7fff || (b & 0xffff) == 0x7fff || (c & 0xffff) == 0x7fff;
    }

    static double half(long bits, boolean bf16) {
        return bf16 ? SmallFloats.bf16ToFloat((int) bits & 0xffff) : SmallFloats.halfToFloat((int) bits & 0xffff);
    }

    static long toHalf(double v, boolean bf16) {
        return bf16 ? SmallFloats.toBf16(v) : SmallFloats.toHalf(v);
    }

    /**
     * {@code v} rounded to f16 or bf16 as {@code r} asks (null: to nearest): the nearest value, moved one step when it
     * lies on the wrong side of {@code v} for a directed rounding (past the largest finite value, to it).
     */
    static long toHalf(double v, boolean bf16, Rounding r) {
        return SmallFloats.toHalf(v, bf16, r);
    }

    /** An f32 result with the .ftz/.sat modifiers applied. */
    static long f32Result(float r, boolean ftz, boolean sat) {
        if (ftz) {
            r = Ieee.ftz(r);
        }
        if (sat) {
            r = Ieee.saturate(r);
        }
        return bits(r);
    }

    static float f32In(long bits, boolean ftz) {
        float f = f32(bits);
        return ftz ? Ieee.ftz(f) : f;
    }

    static Rounding rounding(java.util.List<String> mods, Rounding dflt) {
        for (String m : mods) {
            Rounding r = Rounding.ofModifier(m);
            if (r != null) {
                return r;
            }
        }
        return dflt;
    }
}
