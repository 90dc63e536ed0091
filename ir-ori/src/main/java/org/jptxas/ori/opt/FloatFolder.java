package org.jptxas.ori.opt;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Src;

/**
 * Evaluates f32 instructions whose inputs are known: FADD and FMUL rounding to nearest (Java's float arithmetic is
 * IEEE's), FSETP, and MUFU.LG2/EX2 where ptxas 13 folds them too, to the bits it writes (the correctly rounded
 * log2/exp2, the multi-function unit's value as the SASS emulator models it: measured on lg2 of 16, 2, 3, 7, 10, 0.1,
 * 1, +inf and ex2 of 3, 0.5, -0.5, 2.5, 0.1, 1). Returns null for whatever it does not model exactly (other rounding
 * modes, saturation, NaN results, subnormal MUFU results, log2 of zero or negatives, which ptxas keeps as MUFU), so
 * callers fold only what is certain. {@code raw} gives a source's 32 bits without its modifiers; the float negate
 * and absolute value are applied here (they act on the sign bit, not as integer negation).
 */
final class FloatFolder {
    private FloatFolder() {}

    /** The 32-bit result of FADD, FMUL, MUFU.LG2/EX2, I2F or F2I on known inputs, or null. */
    static Long fold(Instr in, Function<Src, Long> raw) {
        List<Src> s = in.srcs();
        List<String> m = in.mods();
        switch (in.op().name()) {
            case "FADD", "FMUL" -> {
                boolean ftz = m.equals(List.of("FTZ"));
                if (s.size() != 2 || !(m.isEmpty() || ftz)) {
                    return null;
                }
                Float a = value(s.get(0), raw, ftz);
                Float b = value(s.get(1), raw, ftz);
                if (a == null || b == null) {
                    return null;
                }
                float r = in.op().name().equals("FADD") ? a + b : a * b;
                return bits(ftz ? flushed(r) : r);
            }
            case "MUFU" -> {
                if (s.size() != 1 || m.size() != 1) {
                    return null;
                }
                // the unit reads subnormal inputs as zeros
                Float x = value(s.get(0), raw, true);
                if (x == null || Float.isNaN(x)) {
                    return null;
                }
                double r;
                if (m.get(0).equals("LG2")) {
                    if (!(x > 0)) {
                        return null;
                    }
                    r = Math.log(x) / Math.log(2.0);
                } else if (m.get(0).equals("EX2")) {
                    r = Math.pow(2.0, x);
                } else {
                    return null;
                }
                float f = (float) r;
                return f != 0 && Math.abs(f) < Float.MIN_NORMAL ? null : bits(f);
            }
            case "I2F" -> {
                return intToFloat(in, raw);
            }
            case "F2I" -> {
                return floatToInt(in, raw);
            }
            default -> {
                return null;
            }
        }
    }

    /** The modifiers of the I2F and F2I forms folded here (the integer side 32-bit, the float side f32). */
    private static final Set<String> I2F_MODIFIERS = Set.of("S32", "U32", "F32", "RN");
    private static final Set<String> F2I_MODIFIERS = Set.of("S32", "U32", "F32", "TRUNC", "NTZ", "FTZ");

    /**
     * {@code I2F[.S32|.U32]} rounding to nearest, the lowering of {@code cvt.rn.f32.s32}/{@code .u32} (a loop
     * counter's conversion): Java's int-to-float conversion rounds to nearest even, as the instruction does.
     */
    private static Long intToFloat(Instr in, Function<Src, Long> raw) {
        if (in.srcs().size() != 1 || in.srcs().get(0).hasModifiers()) {
            return null;
        }
        if (!I2F_MODIFIERS.containsAll(in.mods())) {
            return null;
        }
        Long x = raw.apply(in.srcs().get(0));
        if (x == null) {
            return null;
        }
        float f = in.mods().contains("U32") ? (float) (x & 0xffffffffL) : (float) (int) (long) x;
        return Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    /**
     * {@code F2I[.S32|.U32][.FTZ].TRUNC[.NTZ]} of a finite value whose truncation fits the result type (the lowering of
     * {@code cvt.rzi.s32.f32}); out-of-range values and NaNs, where the hardware saturates, are left alone.
     */
    private static Long floatToInt(Instr in, Function<Src, Long> raw) {
        if (in.srcs().size() != 1 || !in.mods().contains("TRUNC")) {
            return null;
        }
        if (!F2I_MODIFIERS.containsAll(in.mods())) {
            return null;
        }
        Float f = value(in.srcs().get(0), raw, in.mods().contains("FTZ"));
        if (f == null || Float.isNaN(f) || Float.isInfinite(f)) {
            return null;
        }
        double t = f < 0 ? Math.ceil(f) : Math.floor(f);
        boolean unsigned = in.mods().contains("U32");
        if (unsigned ? t < 0 || t > 0xffffffffL : t < Integer.MIN_VALUE || t > Integer.MAX_VALUE) {
            return null;
        }
        return ((long) t) & 0xffffffffL;
    }

    /** The predicate result of {@code FSETP.cmp[.FTZ].bop p, PT, a, b, pin}, or null. */
    static Boolean foldFsetp(Instr in, Function<Src, Long> raw, Function<Src, Boolean> pred) {
        if (!OpInfo.is(in, "FSETP") || in.srcs().size() != 3) {
            return null;
        }
        boolean ftz = in.mods().contains("FTZ");
        Float a = value(in.srcs().get(0), raw, ftz);
        Float b = value(in.srcs().get(1), raw, ftz);
        Boolean pin = pred.apply(in.srcs().get(2));
        if (a == null || b == null || pin == null) {
            return null;
        }
        Boolean cmp = null;
        for (String mod : in.mods()) {
            Boolean c = compare(mod, a, b);
            if (c != null) {
                if (cmp != null) {
                    return null;
                }
                cmp = c;
            } else if (!List.of("FTZ", "AND", "OR", "XOR").contains(mod)) {
                return null;
            }
        }
        return cmp == null ? null : IntFolder.combine(in.mods(), cmp, pin);
    }

    /** One FSETP comparison mode on two floats; null when {@code mod} is not a comparison. */
    private static Boolean compare(String mod, float a, float b) {
        boolean unordered = Float.isNaN(a) || Float.isNaN(b);
        return switch (mod) {
            case "LT" -> a < b;
            case "LE" -> a <= b;
            case "GT" -> a > b;
            case "GE" -> a >= b;
            case "EQ" -> a == b;
            case "NE" -> !unordered && a != b;
            case "LTU" -> unordered || a < b;
            case "LEU" -> unordered || a <= b;
            case "GTU" -> unordered || a > b;
            case "GEU" -> unordered || a >= b;
            case "EQU" -> unordered || a == b;
            case "NEU" -> a != b;
            case "NUM" -> !unordered;
            case "NAN" -> unordered;
            case "F" -> false;
            case "T" -> true;
            default -> null;
        };
    }

    /** A source's float value with its |x| and -x applied (sign-bit operations), flushed when {@code ftz}. */
    private static Float value(Src s, Function<Src, Long> raw, boolean ftz) {
        if (s.not()) {
            return null;
        }
        Long b = raw.apply(Src.of(s.value()));
        if (b == null) {
            return null;
        }
        int x = (int) (long) b;
        if (s.abs()) {
            x &= 0x7fffffff;
        }
        if (s.neg()) {
            x ^= 0x80000000;
        }
        float f = Float.intBitsToFloat(x);
        return ftz ? flushed(f) : f;
    }

    /** The result's bits; null for a NaN (the hardware's canonical NaN is not necessarily Java's). */
    private static Long bits(float f) {
        return Float.isNaN(f) ? null : Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    private static float flushed(float x) {
        return Math.abs(x) < Float.MIN_NORMAL ? Math.copySign(0.0f, x) : x;
    }
}
