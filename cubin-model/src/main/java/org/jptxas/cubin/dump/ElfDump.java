package org.jptxas.cubin.dump;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFormatException;
import org.jptxas.cubin.ElfHeader;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.EiFormat;
import org.jptxas.cubin.info.NvInfo;
import org.jptxas.cubin.tables.CubinTables;

/**
 * Prints a cubin the way {@code cuobjdump -elf} does: header line, section table, symbol table, then data sections
 * (each followed by its relocations), .nv.info attributes, the call graph, code words, and the remaining
 * relocation sections. DWARF abbreviations, DIEs, location lists and line programs, ptxas's register maps, the
 * embedded PTX and .debug_frame are decoded; other debug sections are listed by name only.
 */
public final class ElfDump {
    private ElfDump() {}

    private static final int ANNOTATIONS = 0x55;
    private static final int EXTERNS = 0x0f;
    private static final int INDIRECT_BRANCH_TARGETS = 0x34;
    private static final int MBARRIER_INSTR_OFFSETS = 0x39;
    /** The instruction kinds of EIATTR_MBARRIER_INSTR_OFFSETS records, by their 4-bit code (cuobjdump 12.5's names). */
    private static final List<String> MBARRIER_KINDS = List.of("INIT", "ARRIVE", "ARRIVE_NOCOMPLETE", "ARRIVE_DROP",
            "ARRIVE_DROP_NOCOMPLETE", "TEST_WAIT", "TEST_WAIT_PARITY", "CP_ASYNC_ARRIVE", "INVAL", "TRY_WAIT",
            "TRY_WAIT_PARITY");
    /** The address stride of a record's 2-bit stride code. */
    private static final int[] MBARRIER_STRIDES = {4, 8, 16, 1};

    /** Groups of [branch offset][0][count][targets...]; false when the payload does not have that shape. */
    private static boolean indirectBranches(byte[] p, StringBuilder sb) {
        StringBuilder text = new StringBuilder();
        int at = 0;
        while (at < p.length) {
            if (p.length - at < 12) {
                return false;
            }
            int count = word(p, at + 8);
            if (count < 0 || count > (p.length - at - 12) / 4) {
                return false;
            }
            text.append("\n\t\tOffset of Indirect Branch: 0x").append(Integer.toHexString(word(p, at)))
                    .append("\t Number of targets: ").append(count).append("\n\t\tTargets: ");
            for (int k = 0; k < count; k++) {
                text.append("0x").append(Integer.toHexString(word(p, at + 12 + 4 * k))).append(' ');
            }
            text.append('\n');
            at += 12 + 4 * count;
        }
        sb.append(text);
        return true;
    }

    /** The dump; a section whose contents cannot be decoded ends the dump with a {@link CubinFormatException}. */
    public static String print(Cubin cubin) {
        StringBuilder out = new StringBuilder();
        header(cubin, out);
        sectionTable(cubin, out);
        out.append("\n.section .strtab\n\n.section .shstrtab\n\n.section .symtab\n");
        List<Symbol> symbols = cubin.symbols();
        symbolTable(symbols, out);
        List<Section> sections = cubin.sections();
        List<Integer> printedRel = new ArrayList<>();
        // Data sections, each followed by the relocations that patch it.
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (isData(s)) {
                out.append(s.name()).append('\n');
                if (!SectionType.occupiesFile(s.type())) {
                    out.append("   No data to be dumped. \n");
                } else {
                    words(s.data(), out);
                }
                out.append('\n');
                relocationsOf(i, sections, symbols, printedRel, out);
                out.append('\n');
            }
        }
        for (Section s : sections) {
            if (s.type() == SectionType.CUDA_INFO) {
                out.append(s.name()).append('\n');
                attributes(NvInfo.decode(s.data(), "section " + s.name()), symbols, out);
                out.append("\n\n");
            }
        }
        for (Section s : sections) {
            if (s.type() == SectionType.CUDA_CALLGRAPH) {
                out.append(s.name()).append('\n');
                byte[] b = s.data();
                for (int at = 0; at + 8 <= b.length; at += 8) {
                    out.append(" <").append(word(b, at)).append(',').append(word(b, at + 4)).append(">\n");
                }
                out.append("\n\n");
            }
        }
        for (Section s : sections) {
            if (s.type() == SectionType.CUDA_PROTOTYPE) {
                prototypes(cubin, s, out);
            }
        }
        for (Section s : sections) {
            if (s.type() == SectionType.CUDA_RELOCINFO) {
                relocationActions(s, out);
            }
        }
        boolean afterText = false;
        for (int t = 1; t < sections.size(); t++) {
            Section s = sections.get(t);
            if (s.isText()) {
                if (afterText) {
                    out.append('\n'); // one more blank line between code sections
                }
                afterText = true;
                out.append(s.name()).append('\n');
                String fn = s.functionName();
                long smem = cubin.section(".nv.shared." + fn).map(Section::size).orElse(0L);
                long lmem = cubin.section(".nv.local." + fn).map(Section::size).orElse(0L);
                if (!cubin.header().v8Layout()) {
                    // CUDA <= 12 keeps the barrier count in sh_flags [24:20] and the register count in sh_info [31:24].
                    out.append("bar = ").append((s.flags() >>> 20) & 0x1f).append("\treg = ").append(s.info() >>> 24).append('\t');
                }
                out.append("lmem=").append(lmem).append("\tsmem=").append(smem).append('\n');
                words(s.data(), out);
                out.append('\n');
                // cuobjdump prints a code section's relocations right after it
                relocationsOf(t, sections, symbols, printedRel, out);
            }
        }
        if (!afterText && out.toString().endsWith("\n\n\n")) {
            out.setLength(out.length() - 1); // no code at all: the blank line before code is not printed either
        }
        // Then the relocations no section above took (not those of debug sections, which follow their section) ...
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (isRelocation(s) && !printedRel.contains(i)
                    && !(s.info() > 0 && s.info() < sections.size() && isDebug(sections.get(s.info())))) {
                relocations(s, symbols, out);
                printedRel.add(i);
            }
        }
        // ... and the debug sections in cuobjdump's order of kinds, each followed by its relocations.
        List<Integer> debug = new ArrayList<>();
        for (int i = 1; i < sections.size(); i++) {
            if (isDebug(sections.get(i)) && debugRank(sections.get(i).name()) >= 0) {
                debug.add(i);
            }
        }
        debug.sort(java.util.Comparator.comparingInt((Integer i) -> debugRank(sections.get(i).name()))
                .thenComparingInt(i -> i));
        for (int i : debug) {
            Section s = sections.get(i);
            out.append(".section ").append(s.name()).append('\n');
            switch (debugKind(s.name())) {
                case ".debug_frame" -> out.append(DebugFrameDump.print(cubin, s)).append('\n');
                case ".debug_line", ".nv_debug_line_sass" -> out.append(DebugLineDump.print(s.data()));
                case ".debug_abbrev" -> out.append(DebugAbbrevDump.print(s.data()));
                case ".debug_info" -> out.append(DebugInfoDump.print(cubin, s));
                case ".debug_loc" -> out.append(DebugLocDump.print(s.data()));
                case ".nv_debug_info_reg_sass" -> out.append(DebugRegSassDump.print(s.data()));
                case ".nv_debug_info_reg_type" -> out.append(DebugRegTypeDump.print(s.data()));
                // strings, NUL-terminated each: the embedded PTX, DWARF's names
                case ".nv_debug_ptx_txt", ".debug_str" -> out.append(
                        new String(s.data(), java.nio.charset.StandardCharsets.UTF_8).replace('\0', '\n')).append('\n');
                default -> { }
            }
            relocationsOf(i, sections, symbols, printedRel, out);
        }
        // cuobjdump ends on the last line printed, without the blank line that separates blocks
        if (out.length() >= 2 && out.charAt(out.length() - 1) == '\n' && out.charAt(out.length() - 2) == '\n') {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    /** The relocation sections that patch section {@code target}, REL before RELA as cuobjdump lists them. */
    private static void relocationsOf(int target, List<Section> sections, List<Symbol> symbols,
                                      List<Integer> printedRel, StringBuilder out) {
        for (int type : new int[] {SectionType.REL, SectionType.RELA}) {
            for (int r = 1; r < sections.size(); r++) {
                Section rel = sections.get(r);
                if (rel.type() == type && rel.info() == target && !printedRel.contains(r)) {
                    relocations(rel, symbols, out);
                    printedRel.add(r);
                }
            }
        }
    }

    private static boolean isDebug(Section s) {
        return s.name().startsWith(".debug") || s.name().startsWith(".nv_debug_");
    }

    /** A debug section's kind: its name, without the hash ptxas -c appends to {@code .nv_debug_ptx_txt}. */
    private static String debugKind(String name) {
        return name.startsWith(".nv_debug_ptx_txt.") ? ".nv_debug_ptx_txt" : name;
    }

    /** Where cuobjdump 12.5 prints a debug section among the others; -1: not at all. */
    private static int debugRank(String name) {
        return switch (debugKind(name)) {
            case ".debug_abbrev" -> 0;
            case ".debug_info" -> 1;
            case ".debug_loc" -> 2;
            case ".nv_debug_info_reg_sass" -> 3;
            case ".nv_debug_info_reg_type" -> 4;
            case ".debug_str" -> 5;
            case ".debug_line" -> 6;
            case ".nv_debug_line_sass" -> 7;
            case ".nv_debug_ptx_txt" -> 8;
            case ".debug_macinfo", ".debug_pubnames", ".debug_pubtypes" -> -1;
            case ".debug_frame" -> 10;
            default -> 9;
        };
    }

    private static boolean isRelocation(Section s) {
        return s.type() == SectionType.REL || s.type() == SectionType.RELA;
    }

    private static boolean isData(Section s) {
        String n = s.name();
        return n.startsWith(".nv.constant") || n.startsWith(".nv.shared.") || n.startsWith(".nv.local.")
                || n.equals(".nv.global.init");
    }

    private static void header(Cubin cubin, StringBuilder out) {
        ElfHeader h = cubin.header();
        out.append('\n');
        if (h.v8Layout()) {
            out.append(String.format("64-bit ELF: type=%s, ABI=%d, sm=%d, toolkit=0.2, flags=0x%x, kind=SASS%n",
                    h.type() == ElfHeader.ET_REL ? "ET_REL" : h.type() == ElfHeader.ET_EXEC ? "ET_EXEC" : "0x" + Integer.toHexString(h.type()),
                    h.abiVersion(), h.sm(), h.flags()));
        } else {
            out.append(String.format("64bit elf: type=%d, abi=%d, sm=%d, toolkit=%d, flags = 0x%x%n", h.type(),
                    h.abiVersion(), h.sm(), h.version(), h.flags()));
        }
    }

    private static void sectionTable(Cubin cubin, StringBuilder out) {
        out.append("Sections:\n");
        out.append("Index Offset   Size ES Align        Type        Flags Link     Info Name\n");
        List<Section> sections = cubin.sections();
        for (int i = 1; i < sections.size(); i++) {
            Section s = sections.get(i);
            String type = CubinTables.sectionType(s.type()).filter(CubinTables.SectionTypeName::cuobjdump125)
                    .map(CubinTables.SectionTypeName::name).orElse("NULL");
            out.append(String.format("%5x %6x %6x %2x %2x %17s %7x %4x %8x %s%n", i, cubin.layout().sectionOffset(i),
                    s.size(), s.entsize(), s.addralign(), type, s.flags(), s.link(), s.info(), s.name()));
        }
    }

    private static void symbolTable(List<Symbol> symbols, StringBuilder out) {
        out.append(" index           value           size      info    other  shndx    name  \n");
        for (int i = 0; i < symbols.size(); i++) {
            Symbol s = symbols.get(i);
            out.append(String.format(" %3s%16s%16s%9s%9s%7s     %s%n", hex(i), hex(s.value()), hex(s.size()),
                    hex(s.info()), hex(s.other()), hex(s.shndx()), s.name().isEmpty() ? "(null)" : s.name()));
        }
        out.append("\n\n");
    }

    private static String hex(long v) {
        return v == 0 ? "0" : "0x" + Long.toHexString(v);
    }

    private static void words(byte[] b, StringBuilder out) {
        int n = b.length / 4;
        for (int i = 0; i < n; i++) {
            out.append(String.format("0x%08x", word(b, 4 * i)));
            out.append((i % 4 == 3) ? "\n" : " ");
        }
        // A size that is not a multiple of 4 ends in single bytes.
        for (int i = 4 * n; i < b.length; i++) {
            out.append(String.format("0x%02x ", b[i] & 0xff));
        }
        out.append('\n');
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    /**
     * {@code .nv.rel.action}: a u64 base relocation type, then one 8-byte action per type from the base on:
     * symbol kind, addend shift, and two (source position, length, destination position) bit moves.
     */
    private static void relocationActions(Section s, StringBuilder out) {
        byte[] b = s.data();
        out.append(s.name()).append('\n');
        if (b.length >= 8) {
            int base = word(b, 0);
            out.append("Header : Base Relocation : ").append(relocName(base)).append('\n');
            out.append("Reloc type : Symbol Kind,Addend Shift,Source Position1,length1,Destination Position1,"
                    + "Source Position2,length2,Destination Position2\n");
            for (int at = 8, n = 0; at + 8 <= b.length; at += 8, n++) {
                out.append(relocName(base + n)).append(" : ")
                        .append(b[at] == 0 ? "EIVALUE_SYM_KIND_ADDR" : "EIVALUE_SYM_KIND_" + (b[at] & 0xff));
                for (int k = 1; k < 8; k++) {
                    out.append(',').append(b[at + k] & 0xff);
                }
                out.append('\n');
            }
        }
        out.append("\n\n");
    }

    /** {@code .nv.prototype}: (symbol, .strtab offset of the prototype string) pairs, e.g. {@code <41,1(#vll)>}. */
    private static void prototypes(Cubin cubin, Section s, StringBuilder out) {
        byte[] b = s.data();
        int symtab = cubin.symtabIndex();
        byte[] strtab = symtab > 0 && cubin.section(symtab).link() > 0 && cubin.section(symtab).link() < cubin.sections().size()
                ? cubin.section(cubin.section(symtab).link()).data() : new byte[0];
        out.append(s.name()).append('\n');
        for (int at = 0; at + 8 <= b.length; at += 8) {
            int sym = word(b, at);
            int str = word(b, at + 4);
            out.append(" <").append(sym).append(',').append(str).append('(')
                    .append(org.jptxas.cubin.StringTable.at(strtab, str, s.name())).append(")>\n");
        }
        out.append("\n\n");
    }

    private static String relocName(int type) {
        return new Relocation(0, 0, type, 0).typeName();
    }

    private static void relocations(Section s, List<Symbol> symbols, StringBuilder out) {
        boolean rela = s.type() == SectionType.RELA;
        out.append(".section ").append(s.name()).append('\t').append(rela ? "RELA" : "REL").append('\n');
        List<Relocation> rels = Relocations.decode(s);
        for (Relocation r : rels) {
            String sym = r.symbol() >= 0 && r.symbol() < symbols.size() ? symbols.get(r.symbol()).name() : "<symbol " + r.symbol() + ">";
            out.append("0x").append(Long.toHexString(r.offset())).append("    ").append(sym).append("    ").append(r.typeName());
            if (rela) {
                out.append("    ").append(String.format("0x%x", r.addend()));
            }
            out.append('\n');
        }
        out.append('\n');
    }

    private static void attributes(List<Attribute> attributes, List<Symbol> symbols, StringBuilder out) {
        int n = 0;
        for (Attribute a : attributes) {
            n++;
            out.append("\t<0x").append(n).append(">\n");
            String name = CubinTables.eiattr(a.code()).filter(CubinTables.Eiattr::cuobjdump125)
                    .map(e -> "EIATTR_" + e.name()).orElse("unknown Attribute");
            out.append("\tAttribute:\t").append(name).append('\n');
            EiFormat f = a.format();
            out.append("\tFormat:\t").append(f == null ? "EIFMT_0x" + Integer.toHexString(((Attribute.Raw) a).formatByte()) : f.displayName()).append('\n');
            if (!(a instanceof Attribute.Flag)) {
                out.append("\tValue:\t").append(value(a, symbols)).append('\n');
            }
        }
    }

    private static String value(Attribute a, List<Symbol> symbols) {
        if (a instanceof Attribute.Inline in) {
            return "0x" + Integer.toHexString(in.value());
        }
        if (a instanceof Attribute.Flag) {
            return "";
        }
        if (a instanceof Attribute.SymbolValue sv) {
            CubinTables.Eiattr e = CubinTables.eiattr(sv.code()).orElseThrow();
            String sym = sv.symbol() >= 0 && sv.symbol() < symbols.size() ? symbols.get(sv.symbol()).name() : "?";
            return "function: " + sym + "(0x" + Integer.toHexString(sv.symbol()) + ")\t" + e.label() + ": "
                    + (e.hex() ? "0x" + Integer.toHexString(sv.value()) : Integer.toString(sv.value()));
        }
        if (a instanceof Attribute.KParamInfo k) {
            return "Index : 0x" + Integer.toHexString(k.index()) + "\tOrdinal : 0x" + Integer.toHexString(k.ordinal())
                    + "\tOffset  : 0x" + Integer.toHexString(k.offset()) + "\tSize    : 0x" + Integer.toHexString(k.size())
                    + "\n\t\tPointee's logAlignment : 0x" + Integer.toHexString(k.logAlignment()) + "\tSpace : 0x"
                    + Integer.toHexString(k.space()) + "\tcbank : 0x" + Integer.toHexString(k.cbank())
                    + "\tParameter Space : " + (k.flag17() ? "SMEM" : "CBANK") + "\t";
        }
        byte[] p = a.payload();
        StringBuilder sb = new StringBuilder();
        if (a.code() == EXTERNS && p.length % 4 == 0) {
            sb.append("externs:\t");
            for (int at = 0; at < p.length; at += 4) {
                int sym = word(p, at);
                sb.append(sym >= 0 && sym < symbols.size() ? symbols.get(sym).name() : "?").append("(0x")
                        .append(Integer.toHexString(sym)).append(")\t");
            }
            return sb.toString();
        }
        if (a.code() == INDIRECT_BRANCH_TARGETS && p.length % 4 == 0 && indirectBranches(p, sb)) {
            return sb.toString();
        }
        if (a.code() == MBARRIER_INSTR_OFFSETS && p.length % 16 == 0) {
            mbarrierInstructions(p, sb);
            return sb.toString();
        }
        if (a.code() == ANNOTATIONS && p.length % 8 == 0 && p.length > 0) {
            // (kind, instruction offset) pairs; kind 1 marks spill/refill code.
            for (int at = 0; at < p.length; at += 8) {
                int kind = word(p, at);
                sb.append(at == 0 ? "" : "\n\t\t").append(kind == 1 ? "SpillRefill" : "0x" + Integer.toHexString(kind))
                        .append(" : \tInstruction Offset : 0x").append(Integer.toHexString(word(p, at + 4)));
            }
            return sb.toString();
        }
        if (p.length % 4 == 0) {
            for (int at = 0; at < p.length; at += 4) {
                sb.append("0x").append(Integer.toHexString(word(p, at))).append(' ');
            }
        } else {
            for (byte b : p) {
                sb.append("0x").append(Integer.toHexString(b & 0xff)).append(' ');
            }
        }
        return sb.toString();
    }

    /**
     * EIATTR_MBARRIER_INSTR_OFFSETS: 16-byte records {instruction offset, address register, immediate offset,
     * [kind:4][stride:2] .. [uniform register at byte 2]}, one per mbarrier instruction; the field layout was mapped
     * by flipping payload bits under cuobjdump 12.5 (ElfDumpTest pins it).
     */
    private static void mbarrierInstructions(byte[] p, StringBuilder sb) {
        for (int at = 0; at < p.length; at += 16) {
            int bits = word(p, at + 12);
            int kind = bits & 0xf;
            int imm = word(p, at + 8);
            sb.append("\n\t0x").append(Integer.toHexString(word(p, at))).append("\t:\tInstruction Kind : ")
                    .append(kind < MBARRIER_KINDS.size() ? "MBARRIER_" + MBARRIER_KINDS.get(kind) : "Unknown Instruction")
                    .append("\t(R").append(Integer.toUnsignedString(word(p, at + 4))).append(" + UR")
                    .append((bits >>> 16) & 0xff).append(imm == 0 ? "" : " + " + imm).append(")\tStride : MBARRIER_STRIDE_X")
                    .append(MBARRIER_STRIDES[(bits >>> 4) & 3]);
        }
    }
}
