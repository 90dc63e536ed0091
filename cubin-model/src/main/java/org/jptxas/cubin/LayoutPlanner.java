package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes file layouts and program headers as ptxas 13 writes them, from the sections alone.
 *
 * <p>Sections are placed in section-header order after the ELF header, each at the next offset aligned to its
 * {@code sh_addralign} (NOBITS sections take no room), then the section header table (8-aligned), then the program
 * header table. Two ptxas habits on top of that, found by measuring every corpus cubin:
 * <ul>
 *   <li>From sm_90 on, {@code .shstrtab} is followed by zero bytes: ptxas sizes the file region of the section-name
 *       table before dropping names it reserved. On sm_90 the region is 14 bytes longer plus {@code 18 + length} per
 *       function ({@code .text.<f>} section); from sm_100 on it is always 36 bytes longer.</li>
 *   <li>From sm_100 on, a capsule-Mercury copy ({@code .nv.merc.X}) whose bytes equal those of the section it mirrors
 *       ({@code .X}; {@code .nv.constant3} for {@code .nv.merc.nv.constant.user}, {@code .nv.constant4} for
 *       {@code .nv.merc.nv.constant.pic}) shares that section's file bytes instead of taking room of its own, unless (in relocatable output) its
 *       relocations carry other addends than the original's.</li>
 * </ul>
 */
public final class LayoutPlanner {
    private LayoutPlanner() {}

    /** A copy of {@code cubin} laid out afresh (gap bytes dropped), program headers recomputed for executables. */
    public static Cubin relayout(Cubin cubin) {
        CubinFlavor flavor = CubinFlavors.forSm(cubin.sm());
        List<Section> sections = cubin.sections();
        boolean executable = !cubin.programHeaders().isEmpty();
        List<Segment> segments = executable ? segments(flavor, sections) : List.of();
        Layout layout = plan(flavor, sections, executable ? segments.size() + 2 : 0);
        List<ProgramHeader> phdrs = executable ? programHeaders(flavor, sections, layout, segments) : List.of();
        return new Cubin(cubin.header(), sections, phdrs, layout);
    }

    /** The layout without ptxas's per-target habits (sections packed in order); see {@link #plan(int, List, int)}. */
    public static Layout plan(List<Section> sections, int phnum) {
        return plan(PLAIN, sections, phnum);
    }

    /** No per-target habits: sections packed in order, nothing mirrored, no slack. */
    private static final CubinFlavor PLAIN = new CubinFlavor("plain", List.of(), false, false, "0x0", 0, 0, 0, false, 0,
            new CubinFlavor.Slack(0, 0));

    /** The layout ptxas 13 gives {@code sections} in {@code flavor} with {@code phnum} program headers. */
    public static Layout plan(CubinFlavor flavor, List<Section> sections, int phnum) {
        long[] offsets = new long[sections.size()];
        Map<String, Integer> byName = new HashMap<>();
        for (int i = sections.size() - 1; i > 0; i--) {
            byName.put(sections.get(i).name(), i);
        }
        long at = CubinReader.EHDR_SIZE;
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            int mirror = flavor.mercuryMirrors() ? mirrorOf(i, sections, byName, phnum == 0) : -1;
            if (mirror > 0) {
                offsets[i] = offsets[mirror];
            } else {
                at = align(at, s.addralign());
                offsets[i] = at;
                at += s.fileSize();
                if (i == 1 && s.type() == SectionType.STRTAB) {
                    at += shstrtabSlack(flavor, sections);
                }
            }
        }
        long shoff = align(at, 8);
        long phoff = phnum == 0 ? 0 : shoff + (long) sections.size() * CubinReader.SHDR_SIZE;
        long end = phnum == 0 ? shoff + (long) sections.size() * CubinReader.SHDR_SIZE
                : phoff + (long) phnum * CubinReader.PHDR_SIZE;
        return new Layout(offsets, shoff, phoff, end, List.of());
    }

    /** Zero bytes ptxas leaves after {@code .shstrtab} (see the class comment). */
    static long shstrtabSlack(CubinFlavor flavor, List<Section> sections) {
        CubinFlavor.Slack slack = flavor.shstrtabSlack();
        long bytes = slack.base();
        if (slack.perText() > 0) {
            for (Section s : sections) {
                if (s.isText()) {
                    bytes += slack.perText() + s.functionName().length();
                }
            }
        }
        return bytes;
    }

    /** The earlier section whose bytes a capsule-Mercury copy shares, or -1. */
    private static int mirrorOf(int index, List<Section> sections, Map<String, Integer> byName,
                                boolean relocatable) {
        Section s = sections.get(index);
        String prefix = ".nv.merc.";
        if (!s.name().startsWith(prefix) || !SectionType.occupiesFile(s.type())) {
            return -1;
        }
        String rest = s.name().substring(prefix.length());
        String original = switch (rest) {
            case "nv.constant.user" -> ".nv.constant3";
            case "nv.constant.pic" -> ".nv.constant4";
            default -> rest.startsWith("nv.info") || rest.startsWith("rela.") || rest.startsWith("symtab") ? null
                    : "." + rest;
        };
        Integer at = original == null ? null : byName.get(original);
        if (at == null || at > index) {
            return -1;
        }
        Section o = sections.get(at);
        if (o.fileSize() != s.fileSize() || !Arrays.equals(o.data(), s.data())) {
            return -1;
        }
        // In relocatable output (no program headers), a copy whose relocations carry other addends than the original's (e.g. .debug_info pointing into a
        // .debug_line whose copy differs) keeps bytes of its own.
        Integer rel = byName.get(".rela" + original);
        Integer mercRel = byName.get(".nv.merc.rela" + original);
        if (relocatable && rel != null && mercRel != null && !sameAddends(sections.get(rel), sections.get(mercRel))) {
            return -1;
        }
        return at;
    }

    private static boolean sameAddends(Section a, Section b) {
        try {
            List<Relocation> x = Relocations.decode(a);
            List<Relocation> y = Relocations.decode(b);
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (x.get(i).offset() != y.get(i).offset() || x.get(i).addend() != y.get(i).addend()) {
                    return false;
                }
            }
            return true;
        } catch (CubinFormatException e) {
            return false;
        }
    }

    static long align(long at, long alignment) {
        return alignment <= 1 ? at : (at + alignment - 1) / alignment * alignment;
    }

    /** A LOAD segment to be: the sections it spans and its permissions. */
    record Segment(List<Integer> sections, int flags) {}

    /**
     * The LOAD segments ptxas writes (besides those covering the program header table). Below sm_90: one R+X
     * segment from the first to the last allocated section with file bytes, and one R+W segment over the
     * uninitialised (NOBITS) ones. From sm_90 on: one segment per run of allocated sections with the same
     * permissions (R constants, R+X code, R+W data), in section order.
     */
    static List<Segment> segments(CubinFlavor flavor, List<Section> sections) {
        List<Segment> out = new ArrayList<>();
        if (!flavor.hopperLayout()) {
            List<Integer> bits = new ArrayList<>();
            List<Integer> nobits = new ArrayList<>();
            for (int i = 1; i < sections.size(); i++) {
                Section s = sections.get(i);
                if (loadable(s)) {
                    ((s.flags() & Section.SHF_WRITE) == 0 ? bits : nobits).add(i);
                }
            }
            if (!bits.isEmpty()) {
                out.add(new Segment(bits, ProgramHeader.PF_R | ProgramHeader.PF_X));
            }
            if (!nobits.isEmpty()) {
                out.add(new Segment(nobits, ProgramHeader.PF_R | ProgramHeader.PF_W));
            }
            return out;
        }
        List<Integer> run = new ArrayList<>();
        int runFlags = -1;
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (!loadable(s) || s.size() == 0 && SectionType.occupiesFile(s.type())) {
                continue;
            }
            int flags = ProgramHeader.PF_R | ((s.flags() & Section.SHF_EXECINSTR) != 0 ? ProgramHeader.PF_X : 0)
                    | ((s.flags() & Section.SHF_WRITE) != 0 ? ProgramHeader.PF_W : 0);
            if (flags != runFlags && !run.isEmpty()) {
                out.add(new Segment(run, runFlags));
                run = new ArrayList<>();
            }
            run.add(i);
            runFlags = flags;
        }
        if (!run.isEmpty()) {
            out.add(new Segment(run, runFlags));
        }
        return out;
    }

    /** Allocated and not a capsule-Mercury copy (those carry processor-specific flags and are never loaded). */
    private static boolean loadable(Section s) {
        return (s.flags() & Section.SHF_ALLOC) != 0 && (s.flags() & SHF_MASKPROC) == 0;
    }

    private static final long SHF_MASKPROC = 0xf0000000L;

    /** PHDR, the LOAD segments, and a LOAD over the program header table (first below sm_90, last from sm_90). */
    static List<ProgramHeader> programHeaders(CubinFlavor flavor, List<Section> sections, Layout layout,
            List<Segment> segments) {
        long phSize = (segments.size() + 2L) * CubinReader.PHDR_SIZE;
        int tableFlags = !flavor.hopperLayout() ? ProgramHeader.PF_R | ProgramHeader.PF_X : ProgramHeader.PF_R;
        List<ProgramHeader> out = new ArrayList<>();
        out.add(new ProgramHeader(ProgramHeader.PT_PHDR, tableFlags, layout.phoff(), 0, 0, phSize, phSize, 8));
        ProgramHeader table = new ProgramHeader(ProgramHeader.PT_LOAD, tableFlags, layout.phoff(), 0, 0, phSize, phSize, 8);
        if (flavor.hopperLayout()) {
            out.add(table);
        }
        for (Segment seg : segments) {
            long start = Long.MAX_VALUE;
            long fileEnd = -1;
            long memSize = 0;
            for (int i : seg.sections()) {
                Section s = sections.get(i);
                start = Math.min(start, layout.sectionOffset(i));
                // A NOBITS section's (aligned) offset still extends the file part, as ptxas counts it.
                fileEnd = Math.max(fileEnd, layout.sectionOffset(i) + s.fileSize());
                if (s.fileSize() == 0) {
                    memSize += s.size();
                }
            }
            long fileSize = fileEnd < 0 ? 0 : fileEnd - start;
            out.add(new ProgramHeader(ProgramHeader.PT_LOAD, seg.flags(), start, 0, 0, fileSize, fileSize + memSize, 8));
        }
        if (!flavor.hopperLayout()) {
            out.add(table);
        }
        return out;
    }
}
