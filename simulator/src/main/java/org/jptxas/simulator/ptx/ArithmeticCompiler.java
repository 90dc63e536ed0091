package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.bits;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.f64;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

/**
 * Integer and floating-point arithmetic: add, sub, mul, div, rem, min, max, the logic ops and shifts, mad and fma, the
 * unary ops (neg, abs, popc, sqrt, sin, ...), mul24, sad and the carry chains (add.cc, addc, madc).
 */
final class ArithmeticCompiler {
    private final InstructionCompiler ic;

    ArithmeticCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    Insn binary() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        String o = ic.ins.opcode();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t);
        Src b = ic.src(ic.op(2), (o.equals("shl") || o.equals("shr")) ? PtxType.U32 : t);
        if (isFloat(t)) {
            return floatBinary(o, t, d, a, b);
        }
        int size = Math.max(1, t.sizeBytes());
        boolean signed = isSigned(t);
        boolean sat = ic.has("sat");
        int bitsN = 8 * size;
        if (o.equals("mul")) {
            boolean wide = ic.has("wide"), hi = ic.has("hi");
            if (wide) {
                return ic.simple(th -> write(th, d, ext(a.get(th), t) * ext(b.get(th), t)));
            }
            if (hi) {
                if (size == 8) {
                    return ic.simple(th -> write(th, d, mulHigh64(a.get(th), b.get(th), signed)));
                }
                return ic.simple(th -> write(th, d, (ext(a.get(th), t) * ext(b.get(th), t)) >> bitsN));
            }
            return ic.simple(th -> write(th, d, a.get(th) * b.get(th)));
        }
        return switch (o) {
            case "add" -> sat && signed ? ic.simple(th -> write(th, d, clampSigned(ext(a.get(th), t) + ext(b.get(th), t), size)))
                    : ic.simple(th -> write(th, d, a.get(th) + b.get(th)));
            case "sub" -> sat && signed ? ic.simple(th -> write(th, d, clampSigned(ext(a.get(th), t) - ext(b.get(th), t), size)))
                    : ic.simple(th -> write(th, d, a.get(th) - b.get(th)));
            case "div" -> ic.simple(th -> write(th, d, intDiv(ext(a.get(th), t), ext(b.get(th), t), signed, size, false)));
            case "rem" -> ic.simple(th -> write(th, d, intDiv(ext(a.get(th), t), ext(b.get(th), t), signed, size, true)));
            case "min" -> ic.simple(th -> {
                long x = ext(a.get(th), t), y = ext(b.get(th), t);
                write(th, d, signed ? Math.min(x, y) : (Long.compareUnsigned(x, y) <= 0 ? x : y));
            });
            case "max" -> ic.simple(th -> {
                long x = ext(a.get(th), t), y = ext(b.get(th), t);
                write(th, d, signed ? Math.max(x, y) : (Long.compareUnsigned(x, y) >= 0 ? x : y));
            });
            case "and" -> t == PtxType.PRED ? ic.simple(th -> write(th, d, a.get(th) & b.get(th) & 1))
                    : ic.simple(th -> write(th, d, a.get(th) & b.get(th)));
            case "or" -> ic.simple(th -> write(th, d, a.get(th) | b.get(th)));
            case "xor" -> ic.simple(th -> write(th, d, a.get(th) ^ b.get(th)));
            case "shl" -> ic.simple(th -> {
                long s = b.get(th) & 0xffffffffL;
                write(th, d, s >= bitsN ? 0 : a.get(th) << s);
            });
            case "shr" -> ic.simple(th -> {
                long s = b.get(th) & 0xffffffffL;
                long x = ext(a.get(th), t);
                if (signed) {
                    write(th, d, x >> Math.min(s, 63));
                } else {
                    write(th, d, s >= bitsN ? 0 : x >>> s);
                }
            });
            default -> throw ic.unsupported();
        };
    }

    private static long clampSigned(long v, int size) {
        long max = (1L << (8 * size - 1)) - 1, min = -(1L << (8 * size - 1));
        return Math.max(min, Math.min(max, v));
    }

    /** PTX leaves division by zero undefined; the hardware sequences give all ones (quotient) and the dividend (rem). */
    private static long intDiv(long x, long y, boolean signed, int size, boolean rem) {
        if (y == 0) {
            return rem ? x : -1L;
        }
        if (size == 8 && !signed) {
            return rem ? Long.remainderUnsigned(x, y) : Long.divideUnsigned(x, y);
        }
        if (signed && size == 8 && x == Long.MIN_VALUE && y == -1) {
            return rem ? 0 : x;
        }
        return rem ? x % y : x / y;
    }

    private Insn floatBinary(String o, PtxType t, int d, Src a, Src b) throws Unsupported {
        Rounding r = Values.rounding(ic.mods, Rounding.RN);
        boolean ftz = ic.has("ftz"), sat = ic.has("sat");
        boolean approx = ic.has("approx") || ic.has("full");
        if (ic.has("xorsign") && (o.equals("min") || o.equals("max"))) {
            return xorsignMinMax(o.equals("min"), t, d, a, b);
        }
        boolean nanF32 = ic.has("NaN");
        switch (t) {
            case F32 -> {
                return ic.simple(th -> {
                    float x = Values.f32In(a.get(th), ftz), y = Values.f32In(b.get(th), ftz);
                    float z = switch (o) {
                        case "add" -> Ieee.add(x, y, r);
                        case "sub" -> Ieee.add(x, -y, r);
                        case "mul" -> Ieee.mul(x, y, r);
                        case "div" -> approx ? (ic.has("approx") ? approxDiv(x, y) : (float) ((double) x / y))
                                : Ieee.div(x, y, r);
                        // .NaN: a NaN operand gives the canonical NaN, not the other operand
                        case "min" -> nanF32 && (Float.isNaN(x) || Float.isNaN(y)) ? Float.NaN : fmin(x, y);
                        case "max" -> nanF32 && (Float.isNaN(x) || Float.isNaN(y)) ? Float.NaN : fmax(x, y);
                        case "copysign" -> Math.copySign(y, x);
                        default -> throw new InterpreterError("unsupported " + o + ".f32");
                    };
                    if (o.equals("copysign")) {
                        write(th, d, Float.floatToRawIntBits(z) & 0xffffffffL);
                    } else {
                        write(th, d, Values.f32Result(z, ftz, sat));
                    }
                });
            }
            case F64 -> {
                return ic.simple(th -> {
                    double x = f64(a.get(th)), y = f64(b.get(th));
                    double z = switch (o) {
                        case "add" -> Ieee.add(x, y, r);
                        case "sub" -> Ieee.add(x, -y, r);
                        case "mul" -> Ieee.mul(x, y, r);
                        case "div" -> Ieee.div(x, y, r);
                        case "min" -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.min(x, y);
                        case "max" -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.max(x, y);
                        case "copysign" -> Math.copySign(y, x);
                        default -> throw new InterpreterError("unsupported " + o + ".f64");
                    };
                    write(th, d, o.equals("copysign") ? Double.doubleToRawLongBits(z) : bits(sat ? Ieee.saturate(z) : z));
                });
            }
            case F16, BF16, F16X2, BF16X2 -> {
                boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                boolean nanMode = ic.has("NaN");
                int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                // .ftz (f16 add/sub/mul/min/max): subnormal inputs and results are zeros of their sign, as for f32
                // (PTX ISA, half-precision min/max: ".ftz flushes subnormal inputs and results"; ptxas: HMNMX2.FTZ)
                boolean flush = ftz && !bf;
                return ic.simple(th -> {
                    long x = a.get(th), y = b.get(th), out = 0;
                    for (int i = 0; i < lanes; i++) {
                        double p = halfIn(x >>> (16 * i), bf, flush), q = halfIn(y >>> (16 * i), bf, flush);
                        double z = switch (o) {
                            case "add" -> p + q;
                            case "sub" -> p - q;
                            case "mul" -> p * q;
                            // .NaN: a NaN operand gives NaN (canonical), not the other operand
                            case "min" -> nanMode && (Double.isNaN(p) || Double.isNaN(q)) ? Double.NaN
                                    : Double.isNaN(p) ? q : Double.isNaN(q) ? p : Math.min(p, q);
                            case "max" -> nanMode && (Double.isNaN(p) || Double.isNaN(q)) ? Double.NaN
                                    : Double.isNaN(p) ? q : Double.isNaN(q) ? p : Math.max(p, q);
                            default -> throw new InterpreterError("unsupported " + o + "." + t.ptxName());
                        };
                        if (sat) {
                            z = Ieee.saturate(z);
                        }
                        long h = Values.toHalf(z, bf) & 0xffffL;
                        if (flush && (h & 0x7c00) == 0) {
                            h &= 0x8000;
                        }
                        out |= h << (16 * i);
                    }
                    write(th, d, out);
                });
            }
            default -> throw ic.unsupported();
        }
    }

    /**
     * div.approx.f32, d = a * (1/b): the PTX ISA's "for 2^126 &lt; |b| &lt; 2^128, if a is infinity, div.approx.f32
     * returns NaN, otherwise it returns a sign-preserving zero" (1/b is below the normal range there); elsewhere the
     * quotient (the suite compares it within the ISA's 2 ulp).
     */
    static float approxDiv(float x, float y) {
        if (Math.abs(y) > 0x1p126f && !Float.isInfinite(y)) {
            return Float.isInfinite(x) || Float.isNaN(x) ? Float.NaN : Math.copySign(0.0f, x) * Math.signum(y);
        }
        return (float) ((double) x / y);
    }

    /** A half lane's value; {@code flush}: an f16 subnormal as a zero of its sign. */
    private static double halfIn(long bits, boolean bf, boolean flush) {
        return flush && (bits & 0x7c00) == 0 ? ((bits & 0x8000) != 0 ? -0.0 : 0.0) : Values.half(bits, bf);
    }

    /**
     * min/max.xorsign.abs: the minimum or maximum of |a| and |b| (.ftz: subnormal inputs as zero; .NaN: a NaN input
     * gives the canonical NaN), its sign a's sign xor b's; a NaN result keeps its own.
     */
    private Insn xorsignMinMax(boolean min, PtxType t, int d, Src a, Src b) throws Unsupported {
        boolean ftz = ic.has("ftz"), nanMode = ic.has("NaN");
        int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
        boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
        if (t == PtxType.F32) {
            return ic.simple(th -> {
                long ra = a.get(th), rb = b.get(th);
                float x = Math.abs(Values.f32In(ra, ftz)), y = Math.abs(Values.f32In(rb, ftz));
                float z = nanMode && (Float.isNaN(x) || Float.isNaN(y)) ? Float.NaN : min ? fmin(x, y) : fmax(x, y);
                long bits = Float.isNaN(z) ? 0x7fffffffL
                        : Float.floatToRawIntBits(z) & 0x7fffffffL | (ra ^ rb) & 0x80000000L;
                write(th, d, bits);
            });
        }
        if (t != PtxType.F16 && t != PtxType.F16X2 && !bf) {
            throw ic.unsupported();
        }
        return ic.simple(th -> {
            long x = a.get(th), y = b.get(th), out = 0;
            for (int i = 0; i < lanes; i++) {
                long lx = x >>> (16 * i) & 0xffff, ly = y >>> (16 * i) & 0xffff;
                double p = Math.abs(Values.half(lx, bf)), q = Math.abs(Values.half(ly, bf));
                if (ftz) {
                    p = p < 0x1p-14 ? 0 : p;
                    q = q < 0x1p-14 ? 0 : q;
                }
                double z = nanMode && (Double.isNaN(p) || Double.isNaN(q)) ? Double.NaN
                        : Double.isNaN(p) ? q : Double.isNaN(q) ? p : min ? Math.min(p, q) : Math.max(p, q);
                long h = Values.toHalf(z, bf) & 0xffffL;
                if (!Double.isNaN(z)) {
                    h = h & 0x7fff | (lx ^ ly) & 0x8000;
                }
                out |= h << (16 * i);
            }
            write(th, d, out);
        });
    }

    private static float fmin(float x, float y) {
        if (Float.isNaN(x)) {
            return y;
        }
        return Float.isNaN(y) ? x : Math.min(x, y);
    }

    private static float fmax(float x, float y) {
        if (Float.isNaN(x)) {
            return y;
        }
        return Float.isNaN(y) ? x : Math.max(x, y);
    }

    Insn mad() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t), c = ic.src(ic.op(3), ic.has("wide") ? widened(t) : t);
        if (isFloat(t)) {
            Rounding r = Values.rounding(ic.mods, Rounding.RN);
            boolean ftz = ic.has("ftz"), sat = ic.has("sat");
            switch (t) {
                case F32:
                    return ic.simple(th -> write(th, d, Values.f32Result(Ieee.fma(Values.f32In(a.get(th), ftz),
                            Values.f32In(b.get(th), ftz), Values.f32In(c.get(th), ftz), r), ftz, sat)));
                case F64:
                    return ic.simple(th -> write(th, d, bits(Ieee.fma(f64(a.get(th)), f64(b.get(th)), f64(c.get(th)), r))));
                case F16: case BF16: case F16X2: case BF16X2: {
                    boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                    int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                    boolean relu = ic.has("relu"), oob = ic.has("oob");
                    return ic.simple(th -> {
                        long x = a.get(th), y = b.get(th), z = c.get(th), out = 0;
                        boolean flush = ftz && !bf; // .ftz (f16 only): subnormal inputs and result are zeros of their sign
                        for (int i = 0; i < lanes; i++) {
                            double v = Math.fma(halfIn(x >>> (16 * i), bf, flush), halfIn(y >>> (16 * i), bf, flush),
                                    halfIn(z >>> (16 * i), bf, flush));
                            if (sat) {
                                v = Ieee.saturate(v);
                            }
                            if (relu && v < 0) { // only a negative value clamps: -0 stays, as cvt .relu keeps it
                                v = 0;
                            }
                            long h = Values.toHalf(v, bf) & 0xffffL;
                            if (flush && (h & 0x7c00) == 0) {
                                h &= 0x8000;
                            }
                            if (oob && Values.oobNaN16(x >>> (16 * i), y >>> (16 * i), z >>> (16 * i))) {
                                h = 0;
                            }
                            out |= h << (16 * i);
                        }
                        write(th, d, out);
                    });
                }
                default:
                    throw ic.unsupported();
            }
        }
        int size = t.sizeBytes();
        if (ic.has("wide")) {
            return ic.simple(th -> write(th, d, ext(a.get(th), t) * ext(b.get(th), t) + c.get(th)));
        }
        if (ic.has("hi")) {
            boolean signed = isSigned(t);
            if (size == 8) {
                return ic.simple(th -> write(th, d, mulHigh64(a.get(th), b.get(th), signed) + c.get(th)));
            }
            if (ic.has("sat") && signed) {
                // mad.hi.sat.s32: the high word plus c, clamped to the s32 range
                return ic.simple(th -> write(th, d, clampSigned(((ext(a.get(th), t) * ext(b.get(th), t)) >> (8 * size))
                        + ext(c.get(th), t), size)));
            }
            return ic.simple(th -> write(th, d, ((ext(a.get(th), t) * ext(b.get(th), t)) >> (8 * size)) + c.get(th)));
        }
        return ic.simple(th -> write(th, d, a.get(th) * b.get(th) + c.get(th)));
    }

    private static PtxType widened(PtxType t) {
        return switch (t) {
            case S16 -> PtxType.S32;
            case U16 -> PtxType.U32;
            case S32 -> PtxType.S64;
            case U32 -> PtxType.U64;
            default -> t;
        };
    }

    Insn unary() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        String o = ic.ins.opcode();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t);
        int size = Math.max(1, t.sizeBytes());
        if (isFloat(t) && !o.equals("popc") && !o.equals("clz") && !o.equals("brev")) {
            return floatUnary(o, t, d, a);
        }
        return switch (o) {
            case "neg" -> ic.simple(th -> write(th, d, -a.get(th)));
            case "abs" -> ic.simple(th -> write(th, d, Math.abs(ext(a.get(th), t))));
            case "not" -> t == PtxType.PRED ? ic.simple(th -> write(th, d, a.get(th) == 0 ? 1 : 0))
                    : ic.simple(th -> write(th, d, ~a.get(th)));
            case "cnot" -> ic.simple(th -> write(th, d, (a.get(th) & mask(size)) == 0 ? 1 : 0));
            case "popc" -> ic.simple(th -> write(th, d, Long.bitCount(a.get(th) & mask(size))));
            case "clz" -> ic.simple(th -> write(th, d, Long.numberOfLeadingZeros(a.get(th) & mask(size)) - (64 - 8 * size)));
            case "brev" -> ic.simple(th -> write(th, d, Long.reverse(a.get(th)) >>> (64 - 8 * size)));
            case "bfind" -> {
                boolean shiftamt = ic.has("shiftamt");
                boolean signed = isSigned(t);
                yield ic.simple(th -> {
                    long x = ext(a.get(th), t);
                    if (signed && x < 0) {
                        x = ~x;
                    }
                    x &= mask(size);
                    if (x == 0) {
                        write(th, d, 0xffffffffL);
                        return;
                    }
                    int msb = 63 - Long.numberOfLeadingZeros(x);
                    write(th, d, shiftamt ? 8 * size - 1 - msb : msb);
                });
            }
            default -> throw ic.unsupported();
        };
    }

    private Insn floatUnary(String o, PtxType t, int d, Src a) throws Unsupported {
        Rounding r = Values.rounding(ic.mods, Rounding.RN);
        boolean ftz = ic.has("ftz");
        switch (t) {
            case F32:
                return ic.simple(th -> {
                    long raw = a.get(th);
                    float x = Values.f32In(raw, ftz);
                    switch (o) {
                        // a NaN comes out canonical, as the GPU computes f32 neg/abs (ptxas's and jptxas's FADD with
                        // a negated or absolute source); its sign and payload are not PTX's to define (f64 and 16-bit
                        // neg/abs keep the bit operation: jptxas's code flips the sign bit there)
                        case "neg" -> write(th, d, Float.isNaN(x) ? Ieee.CANONICAL_NAN32
                                : (Float.floatToRawIntBits(x) ^ 0x80000000) & 0xffffffffL);
                        case "abs" -> write(th, d, Float.isNaN(x) ? Ieee.CANONICAL_NAN32
                                : Float.floatToRawIntBits(x) & 0x7fffffffL);
                        default -> {
                            float z = switch (o) {
                                case "sqrt" -> Ieee.sqrt(x, r);
                                case "rsqrt" -> (float) (1.0 / Math.sqrt(x));
                                case "rcp" -> Ieee.div(1.0f, x, r);
                                case "sin" -> (float) Math.sin(x);
                                case "cos" -> (float) Math.cos(x);
                                case "ex2" -> (float) Math.pow(2.0, x);
                                case "lg2" -> (float) (Math.log(x) / Math.log(2.0));
                                case "tanh" -> (float) Math.tanh(x);
                                default -> throw new InterpreterError("unsupported " + o + ".f32");
                            };
                            write(th, d, Values.f32Result(z, ftz, false));
                        }
                    }
                });
            case F64:
                if (ftz && ic.has("approx") && (o.equals("rcp") || o.equals("rsqrt"))) {
                    return ic.simple(th -> write(th, d, highWordApproximation(o.equals("rcp"), a.get(th))));
                }
                return ic.simple(th -> {
                    double x = f64(a.get(th));
                    switch (o) {
                        case "neg" -> write(th, d, Double.doubleToRawLongBits(x) ^ Long.MIN_VALUE);
                        case "abs" -> write(th, d, Double.doubleToRawLongBits(x) & Long.MAX_VALUE);
                        default -> {
                            double z = switch (o) {
                                case "sqrt" -> Ieee.sqrt(x, r);
                                case "rsqrt" -> 1.0 / Math.sqrt(x);
                                case "rcp" -> Ieee.div(1.0, x, r);
                                default -> throw new InterpreterError("unsupported " + o + ".f64");
                            };
                            write(th, d, bits(z));
                        }
                    }
                });
            case F16: case BF16: case F16X2: case BF16X2: {
                int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                if (o.equals("neg") || o.equals("abs")) {
                    long m = lanes == 2 ? 0x80008000L : 0x8000L;
                    // .ftz (f16): a subnormal lane is a zero of its sign first (PTX ISA, half neg/abs)
                    boolean flush = ftz && (t == PtxType.F16 || t == PtxType.F16X2);
                    return ic.simple(th -> {
                        long x = a.get(th);
                        if (flush) {
                            for (int k = 0; k < lanes; k++) {
                                if ((x >>> (16 * k) & 0x7c00) == 0) {
                                    x &= ~(0x7fffL << (16 * k));
                                }
                            }
                        }
                        write(th, d, o.equals("neg") ? x ^ m : x & ~m);
                    });
                }
                if (o.equals("ex2") || o.equals("tanh")) {
                    // each lane through the function, rounded back to its type; a NaN is the canonical 0x7fff
                    boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                    return ic.simple(th -> {
                        long in = a.get(th), out = 0;
                        for (int k = 0; k < lanes; k++) {
                            double x = Values.half(in >>> (16 * k), bf);
                            double z = o.equals("ex2") ? Math.pow(2.0, x) : Math.tanh(x);
                            out |= (Double.isNaN(z) ? 0x7fff : Values.toHalf(z, bf) & 0xffff) << (16 * k);
                        }
                        write(th, d, out);
                    });
                }
                throw ic.unsupported();
            }
            default:
                throw ic.unsupported();
        }
    }

    /**
     * rcp/rsqrt.approx.ftz.f64 as the PTX ISA defines them: from the upper word of a only (1.11.20), a subnormal input
     * as a zero of its sign, the result's upper word with the lower word zero, a subnormal result flushed, a NaN the
     * canonical 0x7fffffff00000000. (The precision of the upper word is not the ISA's to fix: the suite compares it
     * within a bound.)
     */
    static long highWordApproximation(boolean reciprocal, long bits) {
        double x = Double.longBitsToDouble(bits & 0xffffffff00000000L);
        if (Double.isNaN(x)) {
            return 0x7fffffff00000000L;
        }
        if (Math.abs(x) < Double.MIN_NORMAL) {
            x = Math.copySign(0.0, x);
        }
        double r = reciprocal ? 1.0 / x : 1.0 / Math.sqrt(x);
        if (Double.isNaN(r)) {
            return 0x7fffffff00000000L;
        }
        if (Math.abs(r) < Double.MIN_NORMAL) {
            r = Math.copySign(0.0, r);
        }
        return Double.doubleToRawLongBits(r) & 0xffffffff00000000L;
    }

    Insn mul24() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t);
        Src c = ic.ins.opcode().equals("mad24") ? ic.src(ic.op(3), t) : th -> 0L;
        boolean hi = ic.has("hi");
        boolean signed = isSigned(t);
        boolean sat = hi && signed && ic.has("sat");
        return ic.simple(th -> {
            long x = a.get(th) & 0xffffff, y = b.get(th) & 0xffffff;
            if (signed) {
                x = Values.sext(x << 8, 4) >> 8;
                y = Values.sext(y << 8, 4) >> 8;
            }
            long p = x * y;
            if (sat) { // .sat (mad24.hi.s32 only): the sum clamped to the s32 range
                write(th, d, Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (p >> 16) + (int) c.get(th))));
                return;
            }
            write(th, d, (hi ? p >> 16 : p) + c.get(th));
        });
    }

    Insn sad() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t), c = ic.src(ic.op(3), t);
        boolean signed = isSigned(t);
        return ic.simple(th -> {
            long x = ext(a.get(th), t), y = ext(b.get(th), t);
            boolean less = signed ? x < y : Long.compareUnsigned(x, y) < 0;
            write(th, d, c.get(th) + (less ? y - x : x - y));
        });
    }

    /** add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{c}.lo/hi{.cc}: extended-precision arithmetic through CC.CF. */
    Insn carryOp() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        String o = ic.ins.opcode();
        boolean setCc = ic.has("cc");
        boolean useCarry = o.endsWith("c");
        int size = t.sizeBytes();
        if (size != 4 && size != 8) {
            throw ic.unsupported();
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t);
        boolean mad = o.startsWith("mad");
        Src c = mad ? ic.src(ic.op(3), t) : null;
        boolean hi = ic.has("hi");
        boolean sub = o.startsWith("sub");
        long m = mask(size);
        return ic.simple(th -> {
            long x = a.get(th) & m, y = b.get(th) & m;
            long cin = useCarry && th.carry ? 1 : 0;
            if (mad) {
                long p;
                if (size == 4) {
                    long full = x * y;
                    p = hi ? full >>> 32 : full & m;
                    if (isSigned(t) && hi) {
                        p = ((ext(x, t) * ext(y, t)) >> 32) & m;
                    }
                } else {
                    p = hi ? mulHigh64(x, y, isSigned(t)) : x * y;
                }
                x = p & m;
                y = c.get(th) & m;
            }
            long r;
            boolean carryOut;
            if (sub) {
                r = (x - y - cin) & m;
                carryOut = Long.compareUnsigned(x, y) < 0 || (Long.compareUnsigned(x, y) == 0 && cin != 0)
                        || (cin != 0 && y == m);
            } else {
                r = (x + y + cin) & m;
                carryOut = size == 4 ? ((x + y + cin) >>> 32) != 0
                        : Long.compareUnsigned(r, x) < 0 || (cin != 0 && r == x);
            }
            write(th, d, r);
            if (setCc) {
                th.carry = carryOut;
            }
        });
    }

    /** The high 64 bits of the 128-bit product (Java 17 has no unsigned multiplyHigh: correct the signed one). */
    static long mulHigh64(long x, long y, boolean signed) {
        long h = Math.multiplyHigh(x, y);
        return signed ? h : h + ((x >> 63) & y) + ((y >> 63) & x);
    }
}
