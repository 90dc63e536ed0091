package org.jptxas.cubin;

import java.util.List;

/** Encodes a {@link Cubin} at its {@link Layout}; see {@link Cubin#write()}. */
final class CubinWriter {
    private CubinWriter() {}

    static byte[] write(Cubin cubin) {
        ElfHeader h = cubin.header();
        Layout layout = cubin.layout();
        List<Section> sections = cubin.sections();
        List<ProgramHeader> phdrs = cubin.programHeaders();
        byte[] out = new byte[Math.toIntExact(layout.fileSize())];

        ByteWriter eh = new ByteWriter(64);
        eh.u8(0x7f).u8('E').u8('L').u8('F').u8(2).u8(1).u8(1).u8(h.osAbi()).u8(h.abiVersion());
        for (int i = 0; i < 7; i++) {
            eh.u8((int) (h.identPad() >>> (8 * i)));
        }
        eh.u16(h.type()).u16(h.machine()).u32(h.version()).u64(h.entry()).u64(layout.phoff()).u64(layout.shoff())
                .u32(h.flags()).u16(h.ehsize()).u16(h.phentsize()).u16(phdrs.size()).u16(h.shentsize())
                .u16(sections.size()).u16(h.shstrndx());
        put(out, 0, eh.toByteArray(), "ELF header");

        ByteWriter sh = new ByteWriter(sections.size() * CubinReader.SHDR_SIZE);
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            long off = layout.sectionOffset(i);
            sh.u32(s.nameOffset()).u32(s.type()).u64(s.flags()).u64(s.addr()).u64(off).u64(s.size()).u32(s.link())
                    .u32(s.info()).u64(s.addralign()).u64(s.entsize());
            if (s.fileSize() > 0) {
                put(out, off, s.data(), "section " + s.name());
            }
        }
        put(out, layout.shoff(), sh.toByteArray(), "section header table");

        ByteWriter ph = new ByteWriter(phdrs.size() * CubinReader.PHDR_SIZE);
        for (ProgramHeader p : phdrs) {
            ph.u32(p.type()).u32(p.flags()).u64(p.offset()).u64(p.vaddr()).u64(p.paddr()).u64(p.filesz())
                    .u64(p.memsz()).u64(p.align());
        }
        if (!phdrs.isEmpty()) {
            put(out, layout.phoff(), ph.toByteArray(), "program header table");
        }
        for (Layout.GapBytes g : layout.gapBytes()) {
            put(out, g.offset(), g.bytes(), "gap bytes");
        }
        return out;
    }

    private static void put(byte[] out, long offset, byte[] bytes, String what) {
        if (offset < 0 || offset + bytes.length > out.length) {
            throw new IllegalStateException(what + " at " + offset + " (" + bytes.length + " bytes) does not fit the "
                    + out.length + "-byte layout");
        }
        System.arraycopy(bytes, 0, out, (int) offset, bytes.length);
    }
}
