package org.jptxas.simulator.sass;

/**
 * SHF, the funnel shift, for both of the emulator's paths (the pre-decoded {@link FastPath} and {@link SassMachine}'s
 * per-thread semantics): the 64-bit value {@code hi:lo} shifted left or right, the low or ({@code .HI}) high word of
 * the result kept. The mode comes from the modifiers once ({@link #mode}) as {@link DecodedOp} flag bits.
 */
final class FunnelShift {
    private FunnelShift() {}

    /**
     * The mode bits of an SHF: {@code .L} (else right), {@code .W} (shift count wraps, else clamps), {@code .HI},
     * {@code .U64}/{@code .S64} (a 64-bit shift, else 32) and unsigned unless {@code .S32}/{@code .S64}. nvdisasm
     * always prints one of the four types (the encoding's two type bits have no unnamed value), so an SHF without a
     * type only comes from hand-written text; it shifts as {@code .U32}, zero-filling.
     */
    static int mode(SassOp op) {
        return (op.has("L") ? DecodedOp.F_LEFT : 0) | (op.has("W") ? DecodedOp.F_WRAP : 0)
                | (op.has("HI") ? DecodedOp.F_HI : 0) | (op.has("U64") || op.has("S64") ? DecodedOp.F_64 : 0)
                | (op.has("S32") || op.has("S64") ? 0 : DecodedOp.F_UNSIGNED);
    }

    /** {@code hi:lo} shifted by {@code shift} as {@code mode} says; the word kept. */
    static int shift(int mode, int lo, int shift, int hi) {
        boolean left = (mode & DecodedOp.F_LEFT) != 0, wrap = (mode & DecodedOp.F_WRAP) != 0;
        boolean hiOut = (mode & DecodedOp.F_HI) != 0, is64 = (mode & DecodedOp.F_64) != 0;
        boolean signed = (mode & DecodedOp.F_UNSIGNED) == 0;
        int width = is64 ? 64 : 32;
        // .W wraps the count to the width; otherwise it clamps there (a negative count is a huge unsigned one).
        int sh = wrap ? shift & (width - 1) : shift < 0 ? width : Math.min(shift, width);
        long v = (long) hi << 32 | Integer.toUnsignedLong(lo);
        long r;
        if (left) {
            long s = sh >= 64 ? 0 : v << sh;
            r = hiOut ? s >>> 32 : s;
        } else if (signed) { // the sign is hi's for .S32 and .S64 alike
            long s = v >> Math.min(sh, 63);
            r = hiOut ? s >> 32 : s;
        } else {
            long s = sh >= 64 ? 0 : v >>> sh;
            r = hiOut ? s >>> 32 : s;
        }
        return (int) r;
    }
}
