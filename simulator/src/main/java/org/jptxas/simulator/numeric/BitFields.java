package org.jptxas.simulator.numeric;

/** Bit-field semantics the PTX interpreter and the SASS emulator share (PTX's bmsk is SASS's BMSK). */
public final class BitFields {
    private BitFields() {}

    /**
     * PTX's bmsk (and BMSK{.W}): b ones from bit a. Clamp: a position of 32 or more (the whole register) gives 0, a
     * width of 32 or more runs to bit 31; wrap: both modulo 32, a wrapped width of 0 gives 0. A mask past bit 31 is cut
     * there. (PTX ISA, "Integer Arithmetic Instructions: bmsk", semantics.)
     */
    public static int bitMask(int a, int b, boolean wrap) {
        int a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
        boolean positionOverflow = !wrap && Integer.toUnsignedLong(a) >= 32;
        boolean widthOverflow = !wrap && Integer.toUnsignedLong(b) >= 32;
        int mask0 = positionOverflow ? 0 : -1 << a1;
        int mask1 = sum >= 32 || positionOverflow || widthOverflow ? 0 : b1 == 0 ? -1 : -1 << sum;
        return mask0 & ~mask1;
    }

    /**
     * PTX's szext (and SGXT{.W}{.U32}): the low b bits of a, sign- or zero-extended. Clamp: a width of 32 or more
     * (the whole register, not its low byte) gives a unchanged; wrap: the width modulo 32; a width of 0 gives 0.
     */
    public static int signOrZeroExtend(int a, int b, boolean wrap, boolean signed) {
        if (!wrap && Integer.toUnsignedLong(b) >= 32) {
            return a;
        }
        int n = b & 0x1f;
        if (n == 0) {
            return 0;
        }
        int v = a & ((1 << n) - 1);
        return signed && (v >>> (n - 1) & 1) != 0 ? v | -(1 << n) : v;
    }
}
