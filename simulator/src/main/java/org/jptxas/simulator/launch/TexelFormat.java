package org.jptxas.simulator.launch;

import java.util.Arrays;
import java.util.Optional;

/**
 * The channel type of a texture's texels (each of its 1, 2 or 4 channels has this type), with the code the texture
 * header stores ({@code org.jptxas.simulator.exec.TextureDescriptors}).
 */
public enum TexelFormat {
    U8("u8", 1, false, false),
    S8("s8", 1, true, false),
    U16("u16", 2, false, false),
    S16("s16", 2, true, false),
    U32("u32", 4, false, false),
    S32("s32", 4, true, false),
    F16("f16", 2, true, true),
    F32("f32", 4, true, true);

    private final String specName;
    private final int bytes;
    private final boolean signed;
    private final boolean floating;

    TexelFormat(String specName, int bytes, boolean signed, boolean floating) {
        this.specName = specName;
        this.bytes = bytes;
        this.signed = signed;
        this.floating = floating;
    }

    /** The launch spec's name: {@code u8}, {@code s16}, {@code f32}, ... */
    public String specName() {
        return specName;
    }

    /** Bytes of one channel. */
    public int bytes() {
        return bytes;
    }

    public boolean signed() {
        return signed;
    }

    public boolean floating() {
        return floating;
    }

    /** Whether a normalized-float read mode applies (8- and 16-bit integers, as cudaReadModeNormalizedFloat). */
    public boolean normalizable() {
        return !floating && bytes < 4;
    }

    public static Optional<TexelFormat> bySpecName(String name) {
        return Arrays.stream(values()).filter(f -> f.specName.equals(name)).findFirst();
    }

    /** The format of header code {@code code} (its ordinal), if any. */
    public static Optional<TexelFormat> byCode(int code) {
        return code >= 0 && code < values().length ? Optional.of(values()[code]) : Optional.empty();
    }
}
