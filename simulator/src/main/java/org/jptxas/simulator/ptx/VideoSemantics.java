package org.jptxas.simulator.ptx;

import java.util.Locale;

/**
 * The scalar video instructions ({@code vadd}, {@code vsub}, {@code vabsdiff}, {@code vmin}, {@code vmax},
 * {@code vshl}, {@code vshr}, {@code vset}) as ptxas 13 expands them. The targets here have no video unit, so
 * ptxas's integer expansion is what every CUDA program gets; it departs from the ISA's pseudocode (a 34-bit
 * intermediate, saturated to the destination type) in three ways, each the same on sm_75 … sm_90:
 * <ul>
 *   <li>Without {@code .sat}, the value {@code .min}/{@code .max} compares with c is the operation's result
 *       sign-extended from a width that depends on the operation ({@link Op#plainWidth}): vadd and vsub wrap to 32
 *       bits, vshl keeps all 64 bits of the shifted pair, the others 34 bits.
 *   <li>{@code .sat} clamps the 34-bit sign extension of the result. For an unsigned destination, vadd, vsub and
 *       vabsdiff clamp only below zero (a sum past 2^32 - 1 wraps); the others clamp both ends. The clamped value
 *       then enters {@code .min}/{@code .max} sign-extended from {@link Op#satWidth} bits.
 *   <li>{@code .min}/{@code .max} compare 64-bit values, c extended by the destination's signedness (vset: a's),
 *       with that signedness.
 * </ul>
 * Found by running ptxas 13's cubins of every type, {@code .sat} and secondary combination in the SASS emulator on
 * edge and random operands; {@code VideoInstructionsOracleTest} keeps the model and ptxas's code in step.
 */
public final class VideoSemantics {
    private VideoSemantics() {}

    /** A scalar video operation and the widths of its intermediate in ptxas's expansion. */
    public enum Op {
        VADD(32, true, 32), VSUB(32, true, 32), VABSDIFF(34, true, 34), VMIN(34, false, 34), VMAX(34, false, 34),
        VSHL(64, false, 32), VSHR(34, false, 32), VSET(34, false, 34);

        /** Sign-extension width of the result entering {@code .min}/{@code .max} without {@code .sat}. */
        public final int plainWidth;
        /** Whether {@code .sat} to an unsigned destination clamps only below zero. */
        public final boolean unsignedClampsBelowOnly;
        /** Sign-extension width of the saturated value entering {@code .min}/{@code .max}. */
        public final int satWidth;

        Op(int plainWidth, boolean unsignedClampsBelowOnly, int satWidth) {
            this.plainWidth = plainWidth;
            this.unsignedClampsBelowOnly = unsignedClampsBelowOnly;
            this.satWidth = satWidth;
        }

        /** The operation of a PTX opcode ({@code "vadd"} …), or null. */
        public static Op of(String opcode) {
            try {
                return valueOf(opcode.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    /** The secondary operation with c. */
    public enum Secondary { NONE, ADD, MIN, MAX }

    /** One scalar video instruction's modifiers: types' signedness, shift mode, comparison, saturation. */
    public record Form(Op op, boolean dSigned, boolean aSigned, boolean bSigned, boolean sat, boolean wrap,
                       String cmp, Secondary secondary) {
        /** The signedness of c and of the {@code .min}/{@code .max} comparison: the destination's, vset's a. */
        public boolean cSigned() {
            return op == Op.VSET ? aSigned : dSigned;
        }
    }

    /** d for operands a, b and c (c unused without a secondary operation). */
    public static int scalar(Form f, int a, int b, int c) {
        long x = f.aSigned() ? a : Integer.toUnsignedLong(a);
        long y = f.bSigned() ? b : Integer.toUnsignedLong(b);
        long t = switch (f.op()) {
            case VADD -> x + y;
            case VSUB -> x - y;
            case VABSDIFF -> Math.abs(x - y);
            case VMIN -> Math.min(x, y);
            case VMAX -> Math.max(x, y);
            case VSHL, VSHR -> {
                int n = (int) (f.wrap() ? y & 31 : Math.min(y & 0xffffffffL, 32));
                yield f.op() == Op.VSHL ? x << n : x >> n;
            }
            case VSET -> compare(f.cmp(), x, y) ? 1 : 0;
        };
        if (f.sat() && f.op() != Op.VSET) {
            t = signExtend(t, 34);
            if (f.dSigned()) {
                t = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, t));
            } else if (f.op().unsignedClampsBelowOnly) {
                t = Math.max(0, t);
            } else {
                t = Math.max(0, Math.min(0xffffffffL, t));
            }
            t = signExtend(t, f.op().satWidth);
        } else {
            t = signExtend(t, f.op().plainWidth);
        }
        return switch (f.secondary()) {
            case NONE -> (int) t;
            case ADD -> (int) t + c;
            case MIN, MAX -> {
                long z = f.cSigned() ? c : Integer.toUnsignedLong(c);
                boolean less = f.cSigned() ? t < z : Long.compareUnsigned(t, z) < 0;
                boolean greater = f.cSigned() ? t > z : Long.compareUnsigned(t, z) > 0;
                yield (int) ((f.secondary() == Secondary.MIN ? less : greater) ? t : z);
            }
        };
    }

    /**
     * {@code vmad} as ptxas 13 expands it: both operands multiply as signed 32-bit values and c is sign-extended
     * whatever their types (IMAD.WIDE on c's sign extension). A negated product ({@code -a} or {@code -b}) or c is
     * one's-complemented and then, like {@code .po}, 1 is added. The 64-bit sum is shifted right by {@code shift}
     * (0, 7 or 15; arithmetically when the result is signed, else logically) and {@code .sat} clamps it to s32 when
     * signed, else to u32; the result is signed when a or b is signed or an operand is negated. The destination's
     * type plays no part.
     */
    public record VmadForm(boolean aSigned, boolean bSigned, boolean po, boolean sat, int shift,
                           boolean negatedProduct, boolean negatedC) {
        /** ptxas's signedness of the result: a's or b's, or signed with a negated operand. */
        public boolean signed() {
            return aSigned || bSigned || negatedProduct || negatedC;
        }
    }

    /** d of {@code vmad} for operands a, b and c (as written, before negation). */
    public static int vmad(VmadForm f, int a, int b, int c) {
        long product = (long) a * b;
        if (f.negatedProduct()) {
            product = ~product;
        } else if (f.negatedC()) {
            c = ~c;
        }
        long t = product + c + (f.po() || f.negatedProduct() || f.negatedC() ? 1 : 0);
        t = f.signed() ? t >> f.shift() : t >>> f.shift();
        if (f.sat()) {
            t = f.signed() ? Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, t))
                    : Math.max(0, Math.min(0xffffffffL, t));
        }
        return (int) t;
    }

    /** The comparison of vset ({@code eq} … {@code ge}) on the extended operands. */
    public static boolean compare(String cmp, long x, long y) {
        return switch (cmp) {
            case "eq" -> x == y;
            case "ne" -> x != y;
            case "lt" -> x < y;
            case "le" -> x <= y;
            case "gt" -> x > y;
            default -> x >= y;
        };
    }

    static long signExtend(long v, int width) {
        return width == 64 ? v : v << (64 - width) >> (64 - width);
    }
}
