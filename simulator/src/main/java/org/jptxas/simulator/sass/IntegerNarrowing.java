package org.jptxas.simulator.sass;

/**
 * I2I, the saturating integer narrowing ptxas writes for {@code cvt.sat.{s8,u8,s16,u16}.s32}: the signed 32-bit
 * source clamped to the destination type's range, held in the 32-bit register as that type's value (sign-extended
 * for S8/S16). nvdisasm prints no other source type or saturation for I2I ({@code .S32.SAT} are fixed), so any other
 * spelling is hand-written text the emulator refuses.
 */
final class IntegerNarrowing {
    private IntegerNarrowing() {}

    /** The destination range of {@code I2I.<type>.S32.SAT}, or null for a spelling nvdisasm never prints. */
    static int[] range(SassOp op) {
        if (!op.has("S32") || !op.has("SAT")) {
            return null;
        }
        return op.has("S8") ? new int[] {Byte.MIN_VALUE, Byte.MAX_VALUE}
                : op.has("U8") ? new int[] {0, 0xff}
                : op.has("S16") ? new int[] {Short.MIN_VALUE, Short.MAX_VALUE}
                : op.has("U16") ? new int[] {0, 0xffff} : null;
    }

    /** {@code a} clamped to {@code range}. */
    static int saturate(int[] range, int a) {
        return Math.max(range[0], Math.min(range[1], a));
    }
}
