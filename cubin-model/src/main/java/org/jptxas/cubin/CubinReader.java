package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/** Parses cubin bytes into a {@link Cubin}; see {@link Cubin#read(byte[])}. */
final class CubinReader {
    private CubinReader() {}

    static final int EHDR_SIZE = 64;
    static final int SHDR_SIZE = 64;
    static final int PHDR_SIZE = 56;

    static Cubin read(byte[] bytes) {
        ByteReader in = new ByteReader(bytes, "cubin");
        if (bytes.length < 16 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') {
            throw new CubinFormatException("not an ELF file (no \\x7fELF magic)");
        }
        if (bytes[4] != 2) {
            throw new CubinFormatException("32-bit ELF (class " + bytes[4] + ") is not supported: cubins are ELFCLASS64");
        }
        if (bytes[5] != 1) {
            throw new CubinFormatException("big-endian ELF (data " + bytes[5] + ") is not a cubin");
        }
        if (bytes.length < EHDR_SIZE) {
            throw new CubinFormatException("truncated: " + bytes.length + " bytes, shorter than the 64-byte ELF header");
        }
        if (bytes[6] != 1) {
            throw new CubinFormatException("unknown ELF identification version " + bytes[6]);
        }
        int osAbi = in.u8(7, "EI_OSABI");
        int abiVersion = in.u8(8, "EI_ABIVERSION");
        long identPad = 0;
        for (int i = 15; i >= 9; i--) {
            identPad = identPad << 8 | in.u8(i, "e_ident");
        }
        int type = in.u16(16, "e_type");
        int machine = in.u16(18, "e_machine");
        int version = in.u32(20, "e_version");
        long entry = in.u64(24, "e_entry");
        long phoff = in.u64(32, "e_phoff");
        long shoff = in.u64(40, "e_shoff");
        int flags = in.u32(48, "e_flags");
        int ehsize = in.u16(52, "e_ehsize");
        int phentsize = in.u16(54, "e_phentsize");
        int phnum = in.u16(56, "e_phnum");
        int shentsize = in.u16(58, "e_shentsize");
        int shnum = in.u16(60, "e_shnum");
        int shstrndx = in.u16(62, "e_shstrndx");
        if (machine != ElfHeader.EM_CUDA) {
            throw new CubinFormatException("e_machine is " + machine + ", not EM_CUDA (190): not a cubin");
        }
        if (ehsize != EHDR_SIZE) {
            throw new CubinFormatException("e_ehsize is " + ehsize + ", expected 64");
        }
        if (shnum > 0 && shentsize != SHDR_SIZE) {
            throw new CubinFormatException("e_shentsize is " + shentsize + ", expected 64");
        }
        if (phnum > 0 && phentsize != PHDR_SIZE) {
            throw new CubinFormatException("e_phentsize is " + phentsize + ", expected 56");
        }
        if (shnum == 0) {
            throw new CubinFormatException("no section headers (e_shnum is 0)");
        }
        if (shstrndx >= shnum) {
            throw new CubinFormatException("e_shstrndx " + shstrndx + " is not a section (there are " + shnum + ")");
        }
        in.check(shoff, (long) shnum * SHDR_SIZE, "section header table");
        in.check(phoff, (long) phnum * PHDR_SIZE, "program header table");

        // Raw headers first: names need .shstrtab, which is itself one of them.
        record RawSection(int name, int type, long flags, long addr, long offset, long size, int link, int info,
                          long align, long entsize) {}
        List<RawSection> raw = new ArrayList<>(shnum);
        for (int i = 0; i < shnum; i++) {
            long h = shoff + (long) i * SHDR_SIZE;
            String f = "section header " + i;
            RawSection r = new RawSection(in.u32(h, f), in.u32(h + 4, f), in.u64(h + 8, f), in.u64(h + 16, f),
                    in.u64(h + 24, f), in.u64(h + 32, f), in.u32(h + 40, f), in.u32(h + 44, f), in.u64(h + 48, f),
                    in.u64(h + 56, f));
            if (SectionType.occupiesFile(r.type)) {
                in.check(r.offset, r.size, "data of section " + i);
            }
            raw.add(r);
        }
        RawSection strHdr = raw.get(shstrndx);
        byte[] shstrtab = !SectionType.occupiesFile(strHdr.type) ? new byte[0]
                : in.slice(strHdr.offset, strHdr.size, "section-name string table");

        List<Section> sections = new ArrayList<>(shnum);
        long[] offsets = new long[shnum];
        for (int i = 0; i < shnum; i++) {
            RawSection r = raw.get(i);
            if (r.type == SectionType.NULL && r.size != 0) {
                throw new CubinFormatException("section " + i + " is SHT_NULL with a size: extended section numbering is not supported");
            }
            String name = i == 0 && r.name == 0 ? "" : StringTable.at(shstrtab, r.name, "section " + i);
            byte[] data = !SectionType.occupiesFile(r.type) ? new byte[0]
                    : in.slice(r.offset, r.size, "data of section " + i + " (" + name + ")");
            sections.add(new Section(name, r.name, r.type, r.flags, r.addr, r.size, r.link, r.info, r.align, r.entsize, data));
            offsets[i] = r.offset;
        }

        List<ProgramHeader> phdrs = new ArrayList<>(phnum);
        for (int i = 0; i < phnum; i++) {
            long h = phoff + (long) i * PHDR_SIZE;
            String f = "program header " + i;
            phdrs.add(new ProgramHeader(in.u32(h, f), in.u32(h + 4, f), in.u64(h + 8, f), in.u64(h + 16, f),
                    in.u64(h + 24, f), in.u64(h + 32, f), in.u64(h + 40, f), in.u64(h + 48, f)));
        }

        ElfHeader header = new ElfHeader(osAbi, abiVersion, identPad, type, machine, version, entry, flags, ehsize,
                phentsize, shentsize, shstrndx);
        Layout layout = new Layout(offsets, shoff, phoff, bytes.length, gapBytes(bytes, sections, offsets, shoff, phoff, phnum));
        return new Cubin(header, sections, phdrs, layout);
    }

    /** Non-zero bytes not covered by the header, a table or a section, in maximal runs. */
    private static List<Layout.GapBytes> gapBytes(byte[] bytes, List<Section> sections, long[] offsets, long shoff,
                                                  long phoff, int phnum) {
        BitSet covered = new BitSet(bytes.length);
        covered.set(0, EHDR_SIZE);
        covered.set((int) shoff, (int) (shoff + (long) sections.size() * SHDR_SIZE));
        covered.set((int) phoff, (int) (phoff + (long) phnum * PHDR_SIZE));
        for (int i = 0; i < sections.size(); i++) {
            long size = sections.get(i).fileSize();
            if (size > 0) {
                covered.set((int) offsets[i], (int) (offsets[i] + size));
            }
        }
        List<Layout.GapBytes> gaps = new ArrayList<>();
        int i = covered.nextClearBit(0);
        while (i < bytes.length) {
            if (bytes[i] != 0) {
                int end = i;
                while (end < bytes.length && !covered.get(end) && bytes[end] != 0) {
                    end++;
                }
                gaps.add(new Layout.GapBytes(i, Arrays.copyOfRange(bytes, i, end)));
                i = end;
            } else {
                i++;
            }
            i = covered.nextClearBit(i);
        }
        return gaps;
    }
}
