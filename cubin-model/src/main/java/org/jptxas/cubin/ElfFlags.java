package org.jptxas.cubin;

/**
 * {@code e_flags} of a cubin. ABI version 7 (CUDA ≤ 12) keeps the SM in bits [7:0] and the virtual SM in [23:16],
 * with TEXMODE/64BIT_ADDRESS flags between; ABI version 8 (ptxas 13) keeps the SM in bits [15:8], the cubin
 * flavour's architecture byte in the low byte (0x04 up to sm_9x, 0x02 from sm_100 on), and in the top byte what debug
 * information the cubin carries ({@link Debug}). The {@code a}/{@code f} target suffixes are not encoded.
 */
public final class ElfFlags {
    private ElfFlags() {}

    public static final int V7_TEXMODE_UNIFIED = 0x100;
    public static final int V7_TEXMODE_INDEPENDENT = 0x200;
    public static final int V7_64BIT_ADDRESS = 0x400;
    public static final int V7_ACCELERATORS = 0x800;
    public static final int V7_SW_FLAG_V2 = 0x1000;

    /** The SM number held in {@code flags} under ABI {@code abiVersion}. */
    public static int sm(int abiVersion, int flags) {
        return abiVersion >= 8 ? (flags >>> 8) & 0xff : flags & 0xff;
    }

    /** The virtual SM of an ABI v7 header (0 under v8, which does not record it). */
    public static int virtualSm(int abiVersion, int flags) {
        return abiVersion >= 8 ? 0 : (flags >>> 16) & 0xff;
    }

    /**
     * The top byte of an ABI v8 {@code e_flags}, by the debug information the cubin carries (ptxas 13 on every
     * target: 0x06 without, 0x09 with line tables from {@code -lineinfo} or the PTX's {@code .loc}, 0x0b with
     * {@code -g}).
     */
    public enum Debug {
        NONE(0x06), LINES(0x09), FULL(0x0b);

        final int bits;

        Debug(int bits) {
            this.bits = bits;
        }
    }

    /** The word ptxas 13 writes for SM {@code sm} (ABI version 8) with the flavour's architecture byte. */
    public static int v8(int sm, int arch) {
        return v8(sm, arch, Debug.NONE);
    }

    /** As {@link #v8(int, int)} for a cubin carrying {@code debug} information. */
    public static int v8(int sm, int arch, Debug debug) {
        return debug.bits << 24 | (sm & 0xff) << 8 | (arch & 0xff);
    }

    /**
     * The word CUDA 12.x ptxas writes for SM {@code sm} (ABI version 7): SM, TEXMODE_UNIFIED, 64BIT_ADDRESS, and the
     * SM again as virtual SM; {@code accelerated} sets the 0x800 bit of {@code sm_90a}.
     */
    public static int v7(int sm, boolean accelerated) {
        return (sm & 0xff) | V7_TEXMODE_UNIFIED | V7_64BIT_ADDRESS | (accelerated ? V7_ACCELERATORS : 0) | (sm & 0xff) << 16;
    }
}
