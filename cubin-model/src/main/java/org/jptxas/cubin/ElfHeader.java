package org.jptxas.cubin;

/**
 * The fields of a cubin's ELF header that are not layout: the header table offsets and counts ({@code e_phoff},
 * {@code e_shoff}, {@code e_phnum}, {@code e_shnum}) follow from {@link Cubin#sections()}, {@link Cubin#programHeaders()}
 * and {@link Layout}.
 *
 * @param osAbi       {@code EI_OSABI}: 0x41 with ABI version 8 (ptxas 13), 0x33 with ABI version 7 (CUDA ≤ 12)
 * @param abiVersion  {@code EI_ABIVERSION}
 * @param identPad    bytes 9..15 of {@code e_ident} as a little-endian number (zero in every ptxas cubin)
 * @param type        {@code e_type}: {@link #ET_REL} for {@code -c} output, {@link #ET_EXEC} otherwise
 * @param machine     {@code e_machine}, {@link #EM_CUDA}
 * @param version     {@code e_version}
 * @param entry       {@code e_entry}
 * @param flags       {@code e_flags}: SM number and ABI-specific bits, see {@link ElfFlags}
 * @param ehsize      {@code e_ehsize} (64)
 * @param phentsize   {@code e_phentsize} (56, also kept when there are no program headers)
 * @param shentsize   {@code e_shentsize} (64)
 * @param shstrndx    {@code e_shstrndx}: index of the section-name string table
 */
public record ElfHeader(int osAbi, int abiVersion, long identPad, int type, int machine, int version, long entry,
                        int flags, int ehsize, int phentsize, int shentsize, int shstrndx) {
    public static final int ET_REL = 1;
    public static final int ET_EXEC = 2;
    public static final int EM_CUDA = 190;
    /** OS/ABI byte written with ABI version 7 (CUDA ≤ 12.x). */
    public static final int OSABI_CUDA_V7 = 0x33;
    /** OS/ABI byte written with ABI version 8 (ptxas 13). */
    public static final int OSABI_CUDA_V8 = 0x41;

    /** True for relocatable ({@code -c}) output. */
    public boolean relocatable() {
        return type == ET_REL;
    }

    /**
     * Whether {@code e_flags} uses the ABI v8 layout: OS/ABI 0x41 (ptxas 13 also writes ABI version 2 with it, for
     * code compiled with the ABI disabled) or ABI version 8 and up.
     */
    public boolean v8Layout() {
        return osAbi == OSABI_CUDA_V8 || abiVersion >= 8;
    }

    /** The SM number encoded in {@link #flags()} for this header's ABI. */
    public int sm() {
        return ElfFlags.sm(v8Layout() ? 8 : 7, flags);
    }
}
