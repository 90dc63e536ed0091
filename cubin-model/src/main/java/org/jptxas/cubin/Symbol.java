package org.jptxas.cubin;

import java.util.Objects;

/**
 * One {@code .symtab} entry.
 *
 * @param name       the name (resolved through the string table named by {@code .symtab}'s {@code sh_link})
 * @param nameOffset {@code st_name}
 * @param info       {@code st_info}: binding in the high nibble, type in the low nibble
 * @param other      {@code st_other}: visibility in bits [1:0], {@link #STO_CUDA_ENTRY} for kernels, a storage class
 *                   in bits [7:5] ({@link #storageClass()})
 * @param shndx      {@code st_shndx}
 * @param value      {@code st_value}
 * @param size       {@code st_size}
 */
public record Symbol(String name, int nameOffset, int info, int other, int shndx, long value, long size) {
    public static final int STB_LOCAL = 0;
    public static final int STB_GLOBAL = 1;
    public static final int STB_WEAK = 2;
    public static final int STT_NOTYPE = 0;
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;
    public static final int STT_SECTION = 3;
    public static final int STT_FILE = 4;
    /** A bound texture reference ({@code .global .texref}): undefined, the driver binds it. */
    public static final int STT_CUDA_TEXTURE = 0xa;
    /** CUDA object type (rNdN). */
    public static final int STT_CUDA_OBJECT = 0xd;
    /** {@code st_other} bit of a kernel entry point. */
    public static final int STO_CUDA_ENTRY = 0x10;
    public static final int STO_CUDA_GLOBAL = 0x20;
    public static final int STO_CUDA_SHARED = 0x40;
    public static final int STO_CUDA_LOCAL = 0x60;
    public static final int STO_CUDA_CONSTANT = 0x80;
    public static final int STO_CUDA_RESERVED_SHARED = 0xa0;
    public static final int SHN_UNDEF = 0;
    public static final int SHN_ABS = 0xfff1;

    public Symbol {
        Objects.requireNonNull(name, "name");
    }

    public int binding() {
        return info >>> 4;
    }

    public int symbolType() {
        return info & 0xf;
    }

    public int visibility() {
        return other & 0x3;
    }

    /** The CUDA storage class bits {@code st_other & 0xe0}. */
    public int storageClass() {
        return other & 0xe0;
    }

    public boolean isEntry() {
        return (other & STO_CUDA_ENTRY) != 0;
    }

    public static int info(int binding, int type) {
        return binding << 4 | type & 0xf;
    }
}
