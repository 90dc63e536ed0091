package org.jptxas.cubin;

import java.util.Objects;

/**
 * One section: its header fields and its bytes. The file offset is layout ({@link Layout}); the name offset into
 * {@code .shstrtab} is kept so that reading then writing is byte-identical even when a name is stored twice.
 *
 * @param name       the section name (resolved through {@code .shstrtab})
 * @param nameOffset {@code sh_name}
 * @param type       {@code sh_type}, see {@link SectionType}
 * @param flags      {@code sh_flags}
 * @param addr       {@code sh_addr}
 * @param size       {@code sh_size}; the length of {@code data} unless the type holds no file bytes
 *                   ({@link SectionType#occupiesFile})
 * @param link       {@code sh_link}
 * @param info       {@code sh_info}
 * @param addralign  {@code sh_addralign}
 * @param entsize    {@code sh_entsize}
 * @param data       the section bytes (empty for NOBITS-like types); defensive copies in and out
 */
public record Section(String name, int nameOffset, int type, long flags, long addr, long size, int link, int info,
                      long addralign, long entsize, byte[] data) {
    public static final long SHF_WRITE = 0x1;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;
    public static final long SHF_INFO_LINK = 0x40;

    public Section {
        Objects.requireNonNull(name, "name");
        data = data == null ? new byte[0] : data.clone();
        if (!SectionType.occupiesFile(type) && data.length != 0) {
            throw new IllegalArgumentException("section " + name + " of type 0x" + Integer.toHexString(type) + " has no file bytes");
        }
        if (SectionType.occupiesFile(type) && size != data.length) {
            throw new IllegalArgumentException("section " + name + ": size " + size + " but " + data.length + " data bytes");
        }
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** Bytes in the file: 0 for NOBITS, else {@link #size()}. */
    public long fileSize() {
        return SectionType.occupiesFile(type) ? size : 0;
    }

    /** True for {@code .text.<function>} code sections. */
    public boolean isText() {
        return name.startsWith(".text.") && (flags & SHF_EXECINSTR) != 0;
    }

    /**
     * For {@code .text.f}, {@code .nv.info.f}, {@code .nv.constant0.f}, {@code .nv.shared.f}: the function name
     * {@code f}; else empty.
     */
    public String functionName() {
        for (String prefix : new String[] {".text.", ".nv.info.", ".nv.shared.", ".nv.local."}) {
            if (name.startsWith(prefix)) {
                return name.substring(prefix.length());
            }
        }
        if (name.startsWith(".nv.constant")) {
            int dot = name.indexOf('.', ".nv.constant".length());
            return dot < 0 ? "" : name.substring(dot + 1);
        }
        return "";
    }

    /** A copy with other bytes (and size). */
    public Section withData(byte[] newData) {
        return new Section(name, nameOffset, type, flags, addr, newData.length, link, info, addralign, entsize, newData);
    }

    /** A copy with another {@code sh_info}. */
    public Section withInfo(int newInfo) {
        return new Section(name, nameOffset, type, flags, addr, size, link, newInfo, addralign, entsize, data);
    }

    /** A copy with another {@code sh_link}. */
    public Section withLink(int newLink) {
        return new Section(name, nameOffset, type, flags, addr, size, newLink, info, addralign, entsize, data);
    }

    /** A copy with another name offset. */
    public Section withNameOffset(int newNameOffset) {
        return new Section(name, newNameOffset, type, flags, addr, size, link, info, addralign, entsize, data);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Section s && name.equals(s.name) && nameOffset == s.nameOffset && type == s.type
                && flags == s.flags && addr == s.addr && size == s.size && link == s.link && info == s.info
                && addralign == s.addralign && entsize == s.entsize && java.util.Arrays.equals(data, s.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, flags, size, link, info) * 31 + java.util.Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "Section[" + name + " type=0x" + Integer.toHexString(type) + " flags=0x" + Long.toHexString(flags)
                + " size=" + size + " link=" + link + " info=" + info + " align=" + addralign + "]";
    }
}
