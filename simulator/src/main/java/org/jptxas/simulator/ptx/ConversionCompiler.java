package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.bits;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.f32;
import static org.jptxas.simulator.ptx.Values.f64;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

/** cvt: between integer and floating-point types, with rounding, saturation and packing. */
final class ConversionCompiler {
    private final InstructionCompiler ic;

    ConversionCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    /**
     * {@code cvt.pack.sat.{u2,s2,u4,s4,u8,s8,u16,s16}.s32{.b32} d, a, b{, c}} (PTX ISA "cvt.pack"): a and b clamped
     * to the narrow type, b in bits [0, n) and a in [n, 2n); for the 2-, 4- and 8-bit types c fills bits [2n, 32).
     */
    private Insn cvtPack(PtxType dt, PtxType st) throws ProgramException, Unsupported {
        // 2- and 4-bit lanes (.u2/.s2/.u4/.s4: modifiers, no PTX types) take s32 sources, then a b32 c
        String narrow = ic.has("u2") ? "u2" : ic.has("s2") ? "s2" : ic.has("u4") ? "u4" : ic.has("s4") ? "s4" : null;
        if (narrow != null) {
            st = PtxType.S32;
        }
        int bits = narrow != null ? narrow.charAt(1) - '0' : 8 * dt.sizeBytes();
        if (!ic.has("sat") || bits > 16 || !isSigned(st)) {
            throw ic.unsupported();
        }
        boolean signed = narrow != null ? narrow.charAt(0) == 's' : isSigned(dt);
        long max = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1, min = signed ? -(1L << (bits - 1)) : 0;
        long mask = (1L << bits) - 1;
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), st), b = ic.src(ic.op(2), st);
        Src c = bits < 16 ? ic.src(ic.op(3), PtxType.B32) : null;
        return ic.simple(th -> {
            long ta = Math.max(min, Math.min(max, (int) a.get(th))) & mask;
            long tb = Math.max(min, Math.min(max, (int) b.get(th))) & mask;
            long r = ta << bits | tb;
            if (c != null) {
                r |= c.get(th) << (2 * bits);
            }
            write(th, d, r & 0xffffffffL);
        });
    }

    Insn cvt() throws ProgramException, Unsupported {
        if (ic.types.size() < 2) {
            throw ic.unsupported();
        }
        PtxType dt = ic.types.get(0), st = ic.types.get(1);
        if (ic.has("pack")) {
            return cvtPack(dt, st);
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), st);
        boolean sat = ic.has("sat"), ftz = ic.has("ftz"), relu = ic.has("relu"), satfinite = ic.has("satfinite");
        Rounding r = Values.rounding(ic.mods, null);
        boolean integralRounding = ic.mods.stream().anyMatch(m -> m.endsWith("i") && Rounding.ofModifier(m) != null);
        if (dt == PtxType.F16X2 && (st == PtxType.E4M3X2 || st == PtxType.E5M2X2)) {
            // an fp8 pair widened to an f16 pair (exact; .relu clamps negatives to 0)
            boolean e4m3 = st == PtxType.E4M3X2;
            return ic.simple(th -> write(th, d,
                    org.jptxas.simulator.numeric.SmallFloats.fp8ToHalfPair((int) a.get(th), e4m3, relu) & 0xffffffffL));
        }
        if (dt == PtxType.F16X2 || dt == PtxType.BF16X2) {
            Src b = ic.src(ic.op(2), st);
            boolean bf = dt == PtxType.BF16X2;
            return ic.simple(th -> {
                long hi = finite(Values.toHalf(cvtDouble(f32(a.get(th)), relu, sat), bf, r) & 0xffff, bf, satfinite);
                long lo = finite(Values.toHalf(cvtDouble(f32(b.get(th)), relu, sat), bf, r) & 0xffff, bf, satfinite);
                write(th, d, hi << 16 | lo);
            });
        }
        if ((dt == PtxType.E4M3X2 || dt == PtxType.E5M2X2) && st == PtxType.F32) {
            // two f32 to fp8 (rn.satfinite), a in the high byte, b in the low
            Src b = ic.src(ic.op(2), st);
            boolean e4m3 = dt == PtxType.E4M3X2;
            return ic.simple(th -> {
                long hi = org.jptxas.simulator.numeric.SmallFloats.toFp8Satfinite(cvtDouble(f32(a.get(th)), relu, false), e4m3);
                long lo = org.jptxas.simulator.numeric.SmallFloats.toFp8Satfinite(cvtDouble(f32(b.get(th)), relu, false), e4m3);
                write(th, d, hi << 8 | lo);
            });
        }
        if ((dt == PtxType.E4M3X2 || dt == PtxType.E5M2X2) && st == PtxType.F16X2) {
            // an f16 pair to fp8 (rn.satfinite), the high half in the high byte
            boolean e4m3 = dt == PtxType.E4M3X2;
            return ic.simple(th -> {
                long x = a.get(th);
                long hi = org.jptxas.simulator.numeric.SmallFloats.toFp8Satfinite(
                        cvtDouble(Values.half(x >>> 16 & 0xffff, false), relu, false), e4m3);
                long lo = org.jptxas.simulator.numeric.SmallFloats.toFp8Satfinite(
                        cvtDouble(Values.half(x & 0xffff, false), relu, false), e4m3);
                write(th, d, hi << 8 | lo);
            });
        }
        if (dt == PtxType.TF32 && st == PtxType.F32 && (r == Rounding.RN || r == Rounding.RZ) && !satfinite) {
            boolean rz = r == Rounding.RZ;
            return ic.simple(th -> write(th, d, org.jptxas.simulator.numeric.SmallFloats.toTf32((int) a.get(th), rz,
                    relu) & 0xffffffffL));
        }
        if (dt == PtxType.TF32 && st == PtxType.F32 && ic.has("rna") && !relu) {
            return ic.simple(th -> write(th, d, toTf32(a.get(th), satfinite)));
        }
        if (isFloat(dt) && isFloat(st)) {
            if (!integralRounding && !ftz && !sat && !relu && (dt == st && (dt == PtxType.F32 || dt == PtxType.F64)
                    || dt == PtxType.F32 && st == PtxType.BF16)) {
                // exact: ptxas moves the bits (a bf16 is an f32's high half), a NaN keeps its payload
                int shift = st == PtxType.BF16 ? 16 : 0;
                return ic.simple(th -> write(th, d, (st == PtxType.BF16 ? a.get(th) & 0xffff : a.get(th)) << shift));
            }
            boolean half = dt == PtxType.F16 || dt == PtxType.BF16;
            return ic.simple(th -> write(th, d, half ? finite(floatToFloat(a.get(th), st, dt, r, integralRounding, ftz,
                    sat, relu), dt == PtxType.BF16, satfinite)
                    : floatToFloat(a.get(th), st, dt, r, integralRounding, ftz, sat, relu)));
        }
        if (isFloat(dt)) {
            Rounding rr = r == null ? Rounding.RN : r;
            boolean signed = isSigned(st);
            return ic.simple(th -> {
                long v = ext(a.get(th), st);
                java.math.BigDecimal exact = signed || st.sizeBytes() < 8 || v >= 0 ? java.math.BigDecimal.valueOf(v)
                        : new java.math.BigDecimal(Long.toUnsignedString(v));
                long out = switch (dt) {
                    case F32 -> {
                        float f = v == 0 ? 0.0f : Ieee.roundToFloat(exact, rr);
                        yield Values.f32Result(f, ftz, sat);
                    }
                    case F64 -> bits(sat ? Ieee.saturate(v == 0 ? 0.0 : Ieee.roundToDouble(exact, rr))
                            : v == 0 ? 0.0 : Ieee.roundToDouble(exact, rr));
                    case F16, BF16 -> {
                        long h = Values.toHalf(v == 0 ? 0.0 : Ieee.roundToDouble(exact, rr), dt == PtxType.BF16, rr);
                        yield sat ? Values.toHalf(Ieee.saturate(Values.half(h, dt == PtxType.BF16)),
                                dt == PtxType.BF16) : h;
                    }
                    default -> throw new InterpreterError("unsupported cvt to " + dt.ptxName());
                };
                write(th, d, out);
            });
        }
        if (isFloat(st)) {
            Rounding rr = r == null ? Rounding.RZ : r;
            int size = dt.sizeBytes();
            boolean signed = isSigned(dt);
            return ic.simple(th -> {
                double x = switch (st) {
                    case F32 -> Values.f32In(a.get(th), ftz);
                    case F64 -> f64(a.get(th));
                    case F16, BF16 -> Values.half(a.get(th), st == PtxType.BF16);
                    default -> throw new InterpreterError("unsupported cvt from " + st.ptxName());
                };
                write(th, d, floatToInt(x, rr, size, signed));
            });
        }
        // integer to integer: extend from the source, then saturate or truncate to the destination
        int dsize = dt.sizeBytes();
        boolean dsigned = isSigned(dt);
        return ic.simple(th -> {
            long v = ext(a.get(th), st);
            if (sat) {
                boolean ssigned = isSigned(st);
                if (dsigned) {
                    long max = dsize >= 8 ? Long.MAX_VALUE : (1L << (8 * dsize - 1)) - 1;
                    long min = dsize >= 8 ? Long.MIN_VALUE : -(1L << (8 * dsize - 1));
                    if (!ssigned && v < 0) {
                        v = max;
                    } else {
                        v = Math.max(min, Math.min(max, v));
                    }
                } else {
                    long max = mask(dsize);
                    if (ssigned && v < 0) {
                        v = 0;
                    } else if (dsize < 8 && Long.compareUnsigned(v, max) > 0) {
                        v = max;
                    }
                }
            }
            write(th, d, dsigned ? Values.sext(v, dsize) : v);
        });
    }

    /**
     * f32 to tf32, to nearest with ties away (cvt.rna.tf32.f32), as ptxas computes it: 0x1000 added to a finite
     * value's bits (a carry may reach the exponent, up to infinity), then the 13 low bits cleared; infinities and NaNs
     * only lose those bits. .satfinite then steps a result with an all-ones exponent one tf32 unit down (infinity to
     * the largest finite value; ptxas's FSETP.GEU |r|, +INF also catches NaNs, whose payload drops by 0x2000).
     */
    private static long toTf32(long raw, boolean satfinite) {
        long bits = raw & 0xffffffffL;
        boolean special = (bits & 0x7f800000L) == 0x7f800000L;
        long r = (special ? bits : bits + 0x1000) & 0xffffe000L;
        if (satfinite && (r & 0x7f800000L) == 0x7f800000L) {
            r -= 0x2000;
        }
        return r;
    }

    /** .satfinite on a 16-bit result: a NaN is the canonical 0x7fff, an infinity the largest finite value. */
    private static long finite(long h, boolean bf16, boolean satfinite) {
        if (!satfinite) {
            return h;
        }
        long mag = h & 0x7fff, inf = bf16 ? 0x7f80 : 0x7c00;
        return mag > inf ? 0x7fff : mag == inf ? h - 1 : h;
    }

    /** .relu clamps a negative result to 0 (PTX ISA: "if negative"; -0 is not, and stays), .sat to [0, 1]. */
    private static double cvtDouble(double v, boolean relu, boolean sat) {
        if (relu && v < 0) {
            v = 0;
        }
        return sat ? Ieee.saturate(v) : v;
    }

    private static long floatToFloat(long raw, PtxType st, PtxType dt, Rounding r, boolean integral, boolean ftz,
                                     boolean sat, boolean relu) {
        // a 16-bit destination: ptxas's F2F.F16.F32.RM/.RP does not flush the source (the only roundings where a
        // subnormal f32 gives anything but a zero)
        boolean half = dt == PtxType.F16 || dt == PtxType.BF16;
        double x = switch (st) {
            case F32 -> Values.f32In(raw, ftz && !half);
            case F64 -> f64(raw);
            case F16, BF16 -> Values.half(raw, st == PtxType.BF16);
            default -> throw new InterpreterError("unsupported cvt from " + st.ptxName());
        };
        if (integral) {
            x = Ieee.roundIntegral(x, r);
        }
        if (relu && x < 0) {
            x = 0;
        }
        return switch (dt) {
            case F32 -> {
                float f;
                if (integral || st != PtxType.F64) {
                    f = (float) x;
                } else {
                    Rounding rr = r == null ? Rounding.RN : r;
                    f = Double.isNaN(x) || Double.isInfinite(x) || x == 0 ? (float) x
                            : Ieee.roundToFloat(new java.math.BigDecimal(x), rr);
                }
                yield Values.f32Result(f, ftz, sat);
            }
            case F64 -> bits(sat ? Ieee.saturate(x) : x);
            case F16, BF16 -> Values.toHalf(sat ? Ieee.saturate(x) : x, dt == PtxType.BF16, integral ? null : r);
            default -> throw new InterpreterError("unsupported cvt to " + dt.ptxName());
        };
    }

    /** Float to integer: round as asked, saturate to the destination's range; NaN gives 0. */
    private static long floatToInt(double x, Rounding r, int size, boolean signed) {
        if (Double.isNaN(x)) {
            return 0;
        }
        double v = Ieee.roundIntegral(x, r);
        if (signed) {
            double max = Math.scalb(1.0, 8 * size - 1);
            if (v >= max) {
                return size >= 8 ? Long.MAX_VALUE : (long) max - 1;
            }
            if (v < -max) {
                return size >= 8 ? Long.MIN_VALUE : -(long) max;
            }
            return (long) v;
        }
        if (v <= 0) {
            return 0;
        }
        double max = Math.scalb(1.0, 8 * size);
        if (v >= max) {
            return mask(size);
        }
        if (size >= 8 && v >= Math.scalb(1.0, 63)) {
            return new java.math.BigDecimal(v).toBigInteger().longValue();
        }
        return (long) v;
    }
}
