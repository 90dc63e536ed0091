package org.jptxas.isel.cubin;

import java.util.List;

/**
 * Computes file layouts: each section's bytes at the next offset aligned to its {@code sh_addralign}, in section
 * order, after the ELF header; then the section header table (8-aligned), then the program header table — the
 * layout ptxas writes for cubins without capsule-Mercury sections.
 */
public final class LayoutPlanner {
    private LayoutPlanner() {}

    /** A copy of {@code cubin} laid out afresh (gap bytes dropped). */
    public static Cubin relayout(Cubin cubin) {
        return new Cubin(cubin.header(), cubin.sections(), cubin.programHeaders(),
                plan(cubin.sections(), cubin.programHeaders().size()));
    }

    public static Layout plan(List<Section> sections, int phnum) {
        long[] offsets = new long[sections.size()];
        long at = CubinReader.EHDR_SIZE;
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            at = align(at, s.addralign());
            offsets[i] = at;
            at += s.fileSize();
        }
        long shoff = align(at, 8);
        long phoff = phnum == 0 ? 0 : shoff + (long) sections.size() * CubinReader.SHDR_SIZE;
        long end = phnum == 0 ? shoff + (long) sections.size() * CubinReader.SHDR_SIZE
                : phoff + (long) phnum * CubinReader.PHDR_SIZE;
        return new Layout(offsets, shoff, phoff, end, List.of());
    }

    static long align(long at, long alignment) {
        return alignment <= 1 ? at : (at + alignment - 1) / alignment * alignment;
    }
}
