package org.jptxas.cli.generality;

import java.util.List;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.tables.ptx.PtxType;

/**
 * Instructions whose results PTX defines only within an error bound: the reference interpreter computes them with
 * Java's correctly rounded functions, the GPU (and the emulator, modelling MUFU and the instruction sequences around
 * it) differently. Their results are compared within the bound below, or bit-exactly between jptxas's and ptxas's
 * cubins (the emulator models the same SASS the same way). The bounds are the PTX ISA's (9.0, "Floating point
 * instructions") rounded up to a power of two, with denormal results treated as zero (the hardware units flush them):
 *
 * <pre>
 * sin, cos .approx          absolute 2^-14 on |x| <= 100 pi (the suite's inputs are kept there; the PTX ISA gives
 *                           2^-14.7 there, 2^-20.5 only on |x| <= 2 pi: the argument is scaled to revolutions in
 *                           f32 first, whose rounding grows with |x|)
 * ex2 .approx .f32          relative 2^-21
 * lg2 .approx .f32          absolute 2^-21, or relative 2^-21
 * rcp, rsqrt, sqrt .approx .f32, div .approx/.full .f32    relative 2^-21
 * rcp .approx .ftz .f64, rsqrt .approx .f64               relative 2^-18
 * tanh .approx .f32         absolute 2^-10
 * ex2, tanh .approx .f16/.bf16 (each half)                 relative 2^-7, absolute 2^-7 for tanh
 * </pre>
 */
final class Approximate {
    private Approximate() {}

    /** A bound: relative and absolute error allowed (either suffices). */
    record Bound(double relative, double absolute) {}

    /** The bound of a case's results, or null when they must be bit-exact. */
    static Bound bound(FormCase c) {
        List<String> w = c.words();
        boolean approx = w.contains("approx") || w.contains("full");
        if (!approx) {
            return null;
        }
        boolean half = w.contains("f16") || w.contains("f16x2") || w.contains("bf16") || w.contains("bf16x2");
        return switch (c.opcode()) {
            case "sin", "cos" -> new Bound(0, 0x1p-14);
            case "ex2" -> half ? new Bound(0x1p-7, 0) : new Bound(0x1p-21, 0);
            case "lg2" -> new Bound(0x1p-21, 0x1p-21);
            case "tanh" -> half ? new Bound(0x1p-7, 0x1p-7) : new Bound(0, 0x1p-10);
            case "rcp", "rsqrt", "sqrt" -> w.contains("f64") ? new Bound(0x1p-18, 0) : new Bound(0x1p-21, 0);
            case "div" -> new Bound(0x1p-21, 0);
            default -> null;
        };
    }

    /**
     * The type of a case's results when any NaN counts as equal to any other (null: NaNs bit-exact), where the PTX ISA
     * (9.0) leaves the NaN open:
     * <ul>
     * <li>neg of every floating type, abs of f32, f16, f16x2, bf16, bf16x2: "NaN inputs yield an unspecified NaN"
     * (ptxas flips or clears the sign bit and keeps the payload; an FADD with -a or |a| gives the canonical NaN).
     * abs.f64 is not among them: "NaN input is passed through unchanged".</li>
     * <li>min/max.f64: "if (isNaN(x) &amp;&amp; isNaN(y)) z = NaN", no payload (only .NaN asks for the canonical
     * one, and f64 has no .NaN).</li>
     * <li>div, rcp, sqrt .rn/.rz/.rm/.rp .f64: "IEEE 754 compliant rounding", and IEEE 754 fixes neither the payload
     * nor the sign of a NaN result (ptxas's sequences give the input NaN quieted, or 0xfff8000000000000 for an
     * invalid operation; the interpreter the canonical NaN).</li>
     * </ul>
     * Results of bf16/bf16x2 forms are stored as b16/b32, hence the instruction's type.
     */
    static PtxType unspecifiedNaN(FormCase c) {
        List<String> w = c.words();
        PtxType t = w.contains("f64") ? PtxType.F64 : w.contains("f32") ? PtxType.F32
                : w.contains("f16x2") ? PtxType.F16X2 : w.contains("f16") ? PtxType.F16
                : w.contains("bf16x2") ? PtxType.BF16X2 : w.contains("bf16") ? PtxType.BF16 : null;
        if (t == null) {
            return null;
        }
        boolean ieeeRounded = w.contains("rn") || w.contains("rz") || w.contains("rm") || w.contains("rp");
        return switch (c.opcode()) {
            case "neg" -> t;
            case "abs" -> t == PtxType.F64 ? null : t;
            case "min", "max" -> t == PtxType.F64 ? t : null;
            case "div", "rcp", "sqrt" -> t == PtxType.F64 && ieeeRounded ? t : null;
            default -> null;
        };
    }

    /** Whether two results of type t are equal within the bound. */
    static boolean close(PtxType t, long a, long b, Bound bound) {
        if (a == b) {
            return true;
        }
        return switch (t) {
            case F32 -> close(Float.intBitsToFloat((int) a), Float.intBitsToFloat((int) b), bound, 0x1p-126);
            case F64 -> close(Double.longBitsToDouble(a), Double.longBitsToDouble(b), bound, 0x1p-1022);
            case F16 -> close(SmallFloats.halfToFloat((int) a & 0xffff), SmallFloats.halfToFloat((int) b & 0xffff),
                    bound, 0x1p-14);
            case BF16 -> close(SmallFloats.bf16ToFloat((int) a & 0xffff), SmallFloats.bf16ToFloat((int) b & 0xffff),
                    bound, 0x1p-126);
            case F16X2 -> close(PtxType.F16, a & 0xffff, b & 0xffff, bound)
                    && close(PtxType.F16, (a >>> 16) & 0xffff, (b >>> 16) & 0xffff, bound);
            case BF16X2 -> close(PtxType.BF16, a & 0xffff, b & 0xffff, bound)
                    && close(PtxType.BF16, (a >>> 16) & 0xffff, (b >>> 16) & 0xffff, bound);
            default -> false;
        };
    }

    private static boolean close(double x, double y, Bound bound, double smallestNormal) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.isNaN(x) && Double.isNaN(y);
        }
        if (Math.abs(x) < smallestNormal) {
            x = 0;
        }
        if (Math.abs(y) < smallestNormal) {
            y = 0;
        }
        if (x == y) {
            return true;
        }
        if (Double.isInfinite(x) || Double.isInfinite(y)) {
            return false;
        }
        double d = Math.abs(x - y);
        return d <= bound.absolute() || d <= bound.relative() * Math.max(Math.abs(x), Math.abs(y));
    }

    /** The input range of an instruction's sources where its bound holds; inputs outside are folded in. */
    static long clampInput(FormCase c, PtxType t, long bits) {
        if (!(c.opcode().equals("sin") || c.opcode().equals("cos")) || t != PtxType.F32) {
            return bits;
        }
        float x = Float.intBitsToFloat((int) bits);
        double limit = 100 * Math.PI;
        if (Float.isNaN(x) || Float.isInfinite(x) || Math.abs(x) <= limit) {
            return bits;
        }
        return Float.floatToRawIntBits((float) Math.IEEEremainder(x, limit)) & 0xffffffffL;
    }
}
