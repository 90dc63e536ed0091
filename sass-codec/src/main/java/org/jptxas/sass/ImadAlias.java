package org.jptxas.sass;

/**
 * nvdisasm names an {@code IMAD} by its operand values, not by any encoding bit: {@code IMAD.MOV} when the product
 * is trivially zero or {@code a}, {@code IMAD.IADD} for {@code a*1+c}, {@code IMAD.SHL} for {@code a*2^k+RZ}, plain
 * {@code IMAD} otherwise; {@code .U32} when bit 73 is clear. The learned forms cannot express "is a power of two",
 * so for the keys below the decoder picks the form whose mnemonic this rule gives. Mapped with nvdisasm 12.5 in raw
 * mode on SM80 and SM90 (2^16 and 2^31 are, oddly, not printed as SHL). With a constant-bank b the name is
 * {@code IMAD.MOV} exactly when a is RZ (sm_75 and sm_90: {@code IMAD.MOV R142, RZ, c[0x1b][0x613c], -R179}, whatever
 * c). Not covered: the carry form {@code IMAD.X} (bit 74) and the uniform-B key (nvdisasm prints plain {@code IMAD}
 * for {@code RZ * UR4} and {@code R5 * URZ}), which keep the generic (refuse-if-ambiguous) path.
 */
final class ImadAlias {
    /** a, 32-bit immediate b (lo[63:32]), c (hi[7:0]). */
    static final int KEY_IMMEDIATE = 0x824;
    /** a, register b (lo[39:32]), register c (hi[7:0]). */
    static final int KEY_REGISTER = 0x224;
    /** a, register b (hi[7:0]), constant-bank c. */
    static final int KEY_REGISTER_CONST = 0x624;
    /** a, register b (hi[7:0]), 32-bit immediate c (lo[63:32]). */
    static final int KEY_REGISTER_IMMEDIATE = 0x424;
    /** a, constant-bank b, register c (hi[7:0]). */
    static final int KEY_CONST_REGISTER = 0xa24;
    private static final int RZ = 0xff;

    private ImadAlias() {}

    /** Whether the rule covers this instruction: one of the keys above, not the carry form {@code IMAD.X}. */
    static boolean covers(long lo, long hi) {
        int key = (int) (lo & 0xfff);
        return (key == KEY_IMMEDIATE || key == KEY_REGISTER || key == KEY_REGISTER_CONST
                || key == KEY_REGISTER_IMMEDIATE || key == KEY_CONST_REGISTER) && ((hi >>> 10) & 1) == 0
                && ((hi >>> 27) & 1) == 0;
    }

    /**
     * Whether a field is IMAD's 32-bit immediate b, which nvdisasm prints signed under every name and signedness
     * ({@code IMAD.U32 R29, R23, -0x2, R5}; SassImadAliasOracleTest).
     */
    static boolean signedImmediate(int key, String mnemonic, String bits) {
        return (key & 0xfff) == KEY_IMMEDIATE && isPlainImad(mnemonic) && bits.equals("63:32");
    }

    /** Whether a form's mnemonic is one of the names {@link #mnemonic} gives (not IMAD.X, .WIDE or .HI). */
    static boolean isPlainImad(String mnemonic) {
        String m = mnemonic.endsWith(".U32") ? mnemonic.substring(0, mnemonic.length() - 4) : mnemonic;
        return m.equals("IMAD") || m.equals("IMAD.MOV") || m.equals("IMAD.IADD") || m.equals("IMAD.SHL");
    }

    /** The mnemonic nvdisasm prints for an instruction {@link #covers} accepts. */
    static String mnemonic(long lo, long hi) {
        int key = (int) (lo & 0xfff);
        long a = (lo >>> 24) & 0xff;
        String base;
        if (key == KEY_IMMEDIATE) {
            long b = lo >>> 32;
            long c = hi & 0xff;
            if (a == RZ || b == 0 || (b == 1 && c == RZ)) {
                base = "IMAD.MOV";
            } else if (b == 1) {
                base = "IMAD.IADD";
            } else if (c == RZ && Long.bitCount(b) == 1 && b != 1L << 16 && b != 1L << 31) {
                base = "IMAD.SHL";
            } else {
                base = "IMAD";
            }
        } else if (key == KEY_CONST_REGISTER) {
            base = a == RZ ? "IMAD.MOV" : "IMAD"; // a bank operand is never zero
        } else {
            long b = key == KEY_REGISTER ? (lo >>> 32) & 0xff : hi & 0xff;
            base = a == RZ || b == RZ ? "IMAD.MOV" : "IMAD";
        }
        return ((hi >>> 9) & 1) == 0 ? base + ".U32" : base;
    }
}
