package org.jptxas.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.tables.CubinTables;

/**
 * nvdisasm 12.5's listing of a cubin's non-code sections, which it prints between the code sections in section
 * order (layouts read off nvdisasm 12.5's listings of ptxas 13 cubins):
 * <ul>
 * <li>the section directives ({@code .section}, {@code .sectionflags}, {@code .align}, {@code .sectionentsize});</li>
 * <li>{@code .nv.info} sections decoded record by record ({@code //----- nvinfo : EIATTR_...}, the header bytes, the
 * size as a difference of two labels, the payload in the attribute's own layout: symbol indices as
 * {@code index@(name)}, instruction-offset lists element by element);</li>
 * <li>{@code .nv.callgraph} and {@code .nv.prototype} as words, symbol indices by name;</li>
 * <li>{@code .note.nv.tkinfo} as its version word and strings;</li>
 * <li>everything else as data: the object symbols of the section with their {@code .type}/{@code .size}/
 * {@code .other} directives and labels where they start, an end label where one ends without another starting
 * there, and between those points {@code .zero} (no file data, or all zeros) or {@code .byte} rows of 16 with a
 * {@code .dword} wherever an 8-byte relocation points ({@code sym}, {@code (sym + inner@srel)} with an addend, or
 * {@code fun@TYPE(sym)}).</li>
 * </ul>
 * Labels {@code .L_n} are numbered per file: first one per object symbol in symbol-table order (used or not), then
 * two per sized {@code .nv.info} record in listing order.
 */
final class NvdisasmSections {
    /** EIATTR codes whose payload nvdisasm lists element by element ({@code //   ....[i]....}). */
    private static final Set<String> INDEXED = Set.of("EXTERNS", "COOP_GROUP_MASK_REGIDS",
            "ATOM16_EMUL_INSTR_REG_MAP", "UNUSED_LOAD_BYTE_OFFSET");
    /** EIATTR codes whose list elements are 8 bytes that nvdisasm prints as two words. */
    private static final Set<String> WORD_PAIRS = Set.of("UNUSED_LOAD_BYTE_OFFSET");
    /** EIATTR codes whose list elements are symbol indices. */
    private static final Set<String> SYMBOL_LISTS = Set.of("EXTERNS");
    /** EIATTR codes with a {@code [symbol u32][value u32]} payload. */
    private static final Set<String> SYMBOL_VALUE = Set.of("REGCOUNT", "FRAME_SIZE", "MIN_STACK_SIZE",
            "MAX_STACK_SIZE");

    /** Marks a 4-byte reference among the 8-byte ones. */
    private static final String WORD = "\u0000word:";

    private final Cubin cubin;
    private final List<Symbol> symbols;
    /** Object symbol index -> its end label's number. */
    private final Map<Integer, Integer> objectLabels = new HashMap<>();
    /** Symbol index -> the name nvdisasm prints: a repeated name gets {@code __0}, {@code __1}, ... */
    private final List<String> names = new ArrayList<>();
    /** Section indices that have a section symbol (those sections get a label). */
    private final Set<Integer> sectionSymbols = new java.util.HashSet<>();
    private final byte[] strtab;
    private int nextLabel;

    /** Labels of code addresses that relocations point at (null: none). */
    private final NvdisasmRelocations relocations;

    /** The labels of indirect branches and their targets (null: printed as numbers). */
    private final NvdisasmJumpTables jumpTables;

    NvdisasmSections(Cubin cubin) {
        this(cubin, null, null);
    }

    NvdisasmSections(Cubin cubin, NvdisasmRelocations relocations, NvdisasmJumpTables jumpTables) {
        this.cubin = cubin;
        this.relocations = relocations;
        this.jumpTables = jumpTables;
        this.symbols = cubin.symbols();
        names.addAll(displayNames(symbols));
        for (int i = 0; i < symbols.size(); i++) {
            Symbol sym = symbols.get(i);
            if (sym.symbolType() == Symbol.STT_SECTION) {
                sectionSymbols.add(sym.shndx());
            }
            if (isObject(sym) && sym.shndx() != Symbol.SHN_UNDEF && !common(sym)) {
                objectLabels.put(i, nextLabel++);
            }
        }
        Section st = cubin.sections().stream().filter(x -> x.name().equals(".strtab")).findFirst().orElse(null);
        this.strtab = st == null ? new byte[0] : st.data();
    }

    /**
     * Symbols nvdisasm lists like common blocks ({@code .size name, size, value}, then {@code .zero size}, no end
     * label): those of no type and the objects of {@code SHT_CUDA_SHARED} sections.
     */
    private boolean common(Symbol sym) {
        if (sym.symbolType() == Symbol.STT_NOTYPE) {
            return true;
        }
        List<Section> sections = cubin.sections();
        return sym.shndx() > 0 && sym.shndx() < sections.size()
                && sections.get(sym.shndx()).type() == SectionType.CUDA_SHARED;
    }

    private String stringAt(int offset) {
        int end = offset;
        while (end >= 0 && end < strtab.length && strtab[end] != 0) {
            end++;
        }
        return offset < 0 || offset >= strtab.length ? hex8(offset)
                : new String(strtab, offset, end - offset, StandardCharsets.ISO_8859_1);
    }

    private static boolean isObject(Symbol s) {
        return s.symbolType() == Symbol.STT_OBJECT || s.symbolType() == Symbol.STT_CUDA_OBJECT;
    }

    /** Whether nvdisasm lists {@code s} in this position (code sections and the ELF bookkeeping excepted). */
    static boolean listed(Section s) {
        int t = s.type();
        return !s.isText() && t != SectionType.NULL && t != SectionType.SYMTAB && t != SectionType.STRTAB
                && t != SectionType.REL && t != SectionType.RELA;
    }

    /** The banner and the lines of a non-code section. */
    List<String> block(Section s) {
        List<String> out = new ArrayList<>();
        out.add(NvdisasmDirectives.banner(s.name()));
        out.add("\t.section\t" + s.name() + ",\"" + flags(s.flags()) + "\"," + type(s));
        String extra = extraFlags(s.flags());
        if (extra != null) {
            out.add("\t.sectionflags\t@\"" + extra + "\"");
        }
        boolean note = s.type() == SectionType.NOTE;
        if (!note && s.addralign() > 1) {
            out.add("\t.align\t" + s.addralign());
        }
        if (s.entsize() > 0) {
            out.add("\t.sectionentsize\t" + s.entsize());
        }
        if (s.name().equals(".note.nv.tkinfo") && s.data().length >= 0x30) {
            tkinfo(s.data(), out);
            return out;
        }
        if (s.type() == SectionType.CUDA_INFO) {
            nvInfo(s.data(), s.info(), out);
            return out;
        }
        if (s.type() == SectionType.CUDA_CALLGRAPH || s.type() == SectionType.CUDA_PROTOTYPE) {
            // pairs of words: a symbol index by the symbol's name, 0 and the negative markers as numbers; the
            // second word of a prototype entry (and of a call-graph entry after marker -2, before -3) names the
            // prototype string
            byte[] b = s.data();
            boolean prototype = s.type() == SectionType.CUDA_PROTOTYPE;
            int marker = 0;
            for (int at = 0; at + 4 <= b.length; at += 4) {
                int w = word(b, at);
                boolean second = (at & 4) != 0;
                if (second && w < 0 && word(b, at - 4) == 0) {
                    marker = w;
                }
                out.add("\t.align\t\t4");
                boolean string = second && (prototype || (marker == -2 && w >= 0));
                out.add(string ? row(at, ".word", "str_index@(\"" + stringAt(w) + "\")")
                        : w > 0 && w < symbols.size() ? row(at, ".word", "index@(" + symbolName(w) + ")")
                        : row(at, ".word", hex8(w)));
            }
            return out;
        }
        data(s, out);
        return out;
    }

    /** The tool-kit note: its version word, then the strings of its string area, all at the area's offset. */
    private static void tkinfo(byte[] b, List<String> out) {
        out.add(row(0x18, ".word", hex8(word(b, 0x18))));
        int start = 0x30;
        for (int k = start; k < b.length; k++) {
            if (b[k] == 0) {
                out.add(row(0x30, ".string", "\"" + new String(b, start, k - start, StandardCharsets.ISO_8859_1)
                        + "\""));
                start = k + 1;
            }
        }
        out.add("");
    }

    // ---- .nv.info

    /** An {@code .nv.info} section's records ({@code text}: the index of the code section it describes, or 0). */
    private void nvInfo(byte[] b, int text, List<String> out) {
        String pendingEnd = null;
        int at = 0;
        while (at + 4 <= b.length) {
            int format = b[at] & 0xff;
            int code = b[at + 1] & 0xff;
            String name = CubinTables.eiattr(code).filter(CubinTables.Eiattr::cuobjdump125)
                    .map(CubinTables.Eiattr::name).orElse(null);
            out.add("");
            out.add("");
            out.add("\t//----- nvinfo : " + (name == null ? "<unknown>" : "EIATTR_" + name));
            out.add("\t.align\t\t4");
            if (pendingEnd != null) {
                out.add(pendingEnd + ":");
                pendingEnd = null;
            }
            out.add(row(at, ".byte", hex2(format) + ", " + hex2(code)));
            int value = (b[at + 2] & 0xff) | (b[at + 3] & 0xff) << 8;
            switch (format) {
                case 1 -> out.add("\t.zero\t\t2");
                case 2 -> {
                    out.add(value == 0 ? "\t.zero\t\t1" : row(at + 2, ".byte", hex2(b[at + 2] & 0xff)));
                    out.add("\t.zero\t\t1");
                }
                case 3 -> out.add(row(at + 2, ".short", String.format(Locale.ROOT, "0x%04x", value)));
                case 4 -> {
                    int start = nextLabel++;
                    int end = nextLabel++;
                    out.add(row(at + 2, ".short", "(.L_" + end + " - .L_" + start + ")"));
                    int size = Math.min(value, b.length - at - 4);
                    payload(name == null ? "" : name, b, at + 4, size, ".L_" + start, text, out);
                    pendingEnd = ".L_" + end;
                    at += size;
                }
                default -> { }
            }
            at += 4;
        }
        if (pendingEnd != null) {
            out.add(pendingEnd + ":");
        }
    }

    private void payload(String name, byte[] b, int from, int size, String label, int text, List<String> out) {
        int end = from + size;
        if (name.equals("INDIRECT_BRANCH_TARGETS") && jumpTables != null && indirectBranches(b, from, end, label,
                text, out)) {
            return;
        }
        if ((SYMBOL_VALUE.contains(name) && size == 8) || (name.equals("PARAM_CBANK") && size == 8)) {
            out.add("\t.align\t\t4");
            out.add(label + ":");
            out.add(row(from, ".word", "index@(" + symbolName(word(b, from)) + ")"));
            if (name.equals("PARAM_CBANK")) {
                out.add(row(from + 4, ".short", hex4(u16(b, from + 4))));
                out.add(row(from + 6, ".short", hex4(u16(b, from + 6))));
            } else {
                out.add(row(from + 4, ".word", hex8(word(b, from + 4))));
            }
            return;
        }
        if (name.equals("KPARAM_INFO") && size == 12) {
            out.add(label + ":");
            out.add(row(from, ".word", hex8(word(b, from))));
            out.add(row(from + 4, ".short", hex4(u16(b, from + 4))));
            out.add(row(from + 6, ".short", hex4(u16(b, from + 6))));
            out.add(row(from + 8, ".byte", hex2(b[from + 8] & 0xff) + ", " + hex2(b[from + 9] & 0xff) + ", "
                    + hex2(b[from + 10] & 0xff) + ", " + hex2(b[from + 11] & 0xff)));
            return;
        }
        if (name.equals("ANNOTATIONS") && size >= 4) {
            // one group: its header word, then the records as bytes
            out.add("");
            out.add("");
            out.add("\t//   ....[0]....");
            out.add(label + ":");
            out.add(row(from, ".word", hex8(word(b, from))));
            bytes(b, from + 4, end, Map.of(), false, out);
            return;
        }
        if (name.equals("MBARRIER_INSTR_OFFSETS") && size > 0 && size % 16 == 0) {
            mbarrierOffsets(b, from, end, label, out);
            return;
        }
        boolean indexed = INDEXED.contains(name) || name.endsWith("_OFFSETS");
        if (indexed && size % 4 == 0) {
            boolean symbolsListed = SYMBOL_LISTS.contains(name);
            boolean pairs = WORD_PAIRS.contains(name);
            int element = name.equals("ATOM16_EMUL_INSTR_REG_MAP") || pairs ? 8 : 4;
            for (int at = from, i = 0; at + element <= end; at += element, i++) {
                out.add("");
                out.add("");
                out.add("\t//   ....[" + i + "]....");
                if (symbolsListed) {
                    out.add("\t.align\t\t4");
                }
                if (at == from) {
                    out.add(label + ":");
                }
                out.add(row(at, ".word", symbolsListed ? "index@(" + symbolName(word(b, at)) + ")"
                        : hex8(word(b, at))));
                if (pairs) {
                    out.add(row(at + 4, ".word", hex8(word(b, at + 4))));
                } else if (element == 8) {
                    out.add(row(at + 4, ".short", hex4(u16(b, at + 4))));
                    out.add(row(at + 6, ".short", hex4(u16(b, at + 6))));
                }
            }
            return;
        }
        if (size == 0) {
            return;
        }
        out.add(label + ":");
        if (size % 4 == 0) {
            for (int at = from; at < end; at += 4) {
                out.add(row(at, ".word", hex8(word(b, at))));
            }
            return;
        }
        bytes(b, from, end, Map.of(), false, out);
    }

    /**
     * {@code EIATTR_MBARRIER_INSTR_OFFSETS}: 16-byte elements, each printed as three words, a half-word, a byte and
     * its last byte ({@code .zero 1} when zero), as nvdisasm 12.5 does.
     */
    private static void mbarrierOffsets(byte[] b, int from, int end, String label, List<String> out) {
        for (int at = from, i = 0; at + 16 <= end; at += 16, i++) {
            out.add("");
            out.add("");
            out.add("\t//   ....[" + i + "]....");
            if (at == from) {
                out.add(label + ":");
            }
            for (int k = 0; k < 12; k += 4) {
                out.add(row(at + k, ".word", hex8(word(b, at + k))));
            }
            out.add(row(at + 12, ".short", hex4(u16(b, at + 12))));
            out.add(row(at + 14, ".byte", hex2(b[at + 14] & 0xff)));
            out.add(b[at + 15] == 0 ? "\t.zero\t\t1" : row(at + 15, ".byte", hex2(b[at + 15] & 0xff)));
        }
    }

    /**
     * An indirect-branch record, entry by entry: the branch's and the targets' code addresses by their labels
     * ({@code .L_x_N@srel}), the half-words and the count as short hex numbers. False (nothing written) when an
     * address has no label or the payload does not parse whole.
     */
    private boolean indirectBranches(byte[] b, int from, int end, String label, int text, List<String> out) {
        List<NvdisasmJumpTables.Entry> entries = NvdisasmJumpTables.entries(b, from, end);
        int size = entries.stream().mapToInt(e -> 12 + 4 * e.targets().size()).sum();
        if (entries.isEmpty() || size != end - from) {
            return false;
        }
        List<String> lines = new ArrayList<>();
        int at = from;
        for (int i = 0; i < entries.size(); i++) {
            NvdisasmJumpTables.Entry e = entries.get(i);
            lines.add("");
            lines.add("");
            lines.add("\t//   ....[" + i + "]....");
            if (i == 0) {
                lines.add(label + ":");
            }
            String branch = jumpTables.labelAt(text, e.branch()).orElse(null);
            if (branch == null) {
                return false;
            }
            lines.add(row(at, ".word", branch + "@srel"));
            lines.add(row(at + 4, ".short", "0x" + Integer.toHexString(e.first())));
            lines.add(row(at + 6, ".short", "0x" + Integer.toHexString(e.second())));
            lines.add(row(at + 8, ".word", "0x" + Integer.toHexString(e.targets().size())));
            at += 12;
            for (long t : e.targets()) {
                String target = jumpTables.labelAt(text, t).orElse(null);
                if (target == null) {
                    return false;
                }
                lines.add(row(at, ".word", target + "@srel"));
                at += 4;
            }
        }
        out.addAll(lines);
        return true;
    }

    // ---- data sections

    private void data(Section s, List<String> out) {
        int index = cubin.sectionIndex(s.name());
        List<Integer> inside = new ArrayList<>();
        for (int i = 0; i < symbols.size(); i++) {
            Symbol sym = symbols.get(i);
            if (sym.shndx() == index && (isObject(sym) || sym.symbolType() == Symbol.STT_NOTYPE)
                    && !sym.name().isEmpty()) {
                inside.add(i);
            }
        }
        if (s.size() == 0 && inside.isEmpty()) {
            return;
        }
        boolean labelled = sectionSymbols.contains(index) && s.type() != SectionType.CUDA_RELOCINFO;
        // common-style symbols, the last in the symbol table first
        List<Integer> commons = inside.stream().filter(i -> common(symbols.get(i)))
                .sorted(java.util.Comparator.reverseOrder()).toList();
        if (!commons.isEmpty()) {
            // common-style symbols, one after the other, then the section's label, then .zero for the rest of the
            // section (a -c object's .nv_debug.shared of 16 bytes holding one 8-byte object ends in .zero 8)
            long held = 0;
            for (int i : commons) {
                symbolDirectives(i, inside, out);
                out.add("\t.zero\t\t" + symbols.get(i).size());
                held += symbols.get(i).size();
            }
            if (labelled) {
                out.add(s.name() + ":");
            }
            if (s.size() > held) {
                out.add("\t.zero\t\t" + (s.size() - held));
            }
            return;
        }
        byte[] b = s.data();
        boolean aligned = (s.flags() & Section.SHF_ALLOC) != 0;
        boolean hasData = SectionType.occupiesFile(s.type()) && b.length == s.size();
        Map<Long, String> dwords = hasData ? relocatedSymbols(index) : Map.of();
        TreeSet<Long> points = new TreeSet<>();
        points.add(0L);
        points.add(s.size());
        for (int i : inside) {
            Symbol sym = symbols.get(i);
            points.add(Math.min(sym.value(), s.size()));
            if (isObject(sym)) {
                points.add(Math.min(sym.value() + sym.size(), s.size()));
            }
        }
        boolean sectionLabel = false;
        for (long p : points) {
            if (aligned && dwords.containsKey(p) && !dwords.get(p).startsWith(WORD)) {
                out.add("\t.align\t\t8");
            }
            // end labels of objects ending here with no other object starting here
            for (int i : inside) {
                Symbol sym = symbols.get(i);
                if (isObject(sym) && sym.size() > 0 && sym.value() + sym.size() == p && startingAt(inside, p) == null) {
                    out.add(".L_" + objectLabels.get(i) + ":");
                }
            }
            // the labels starting here (the symbols' and at 0 the section's) in descending name order
            List<String> here = new ArrayList<>();
            for (int i : inside) {
                if (symbols.get(i).value() == p) {
                    here.add(names.get(i));
                }
            }
            if (p == 0 && labelled && !sectionLabel) {
                here.add(s.name());
                sectionLabel = true;
            }
            here.sort(java.util.Comparator.reverseOrder());
            for (String name : here) {
                if (name.equals(s.name()) && p == 0 && labelled) {
                    out.add(s.name() + ":");
                    continue;
                }
                symbolDirectives(names.indexOf(name), inside, out);
            }
            Long next = points.higher(p);
            if (next == null) {
                if (p == 0 && s.size() == 0 && !inside.isEmpty()) {
                    out.add("\t.zero\t\t0");
                }
                break;
            }
            if (!hasData || allZero(b, (int) p, (int) (long) next) && !anyIn(dwords, p, next)) {
                out.add("\t.zero\t\t" + (next - p));
            } else if (allZero(b, (int) p, (int) (long) next) && onlyTextures(dwords, p, next)) {
                textureWords(p, next, dwords, out);
            } else {
                bytes(b, (int) p, (int) (long) next, dwords, aligned, out);
            }
        }
    }

    /** The first object symbol starting at {@code p} (of the section's symbols, by index), or null. */
    private Integer startingAt(List<Integer> inside, long p) {
        for (int i : inside) {
            Symbol sym = symbols.get(i);
            if (sym.value() == p && isObject(sym)) {
                return i;
            }
        }
        return null;
    }

    private void symbolDirectives(int i, List<Integer> inside, List<String> out) {
        Symbol sym = symbols.get(i);
        String name = names.get(i);
        if (sym.binding() == Symbol.STB_GLOBAL) {
            out.add("\t.global\t\t" + name);
        } else if (sym.binding() == Symbol.STB_WEAK) {
            out.add("\t.weak\t\t" + name);
        }
        if (isObject(sym)) {
            out.add("\t.type\t\t" + name + "," + (sym.symbolType() == Symbol.STT_OBJECT ? "@object"
                    : "@\"STT_CUDA_OBJECT\""));
        }
        if (common(sym)) {
            out.add("\t.size\t\t" + name + ", " + sym.size() + ", " + sym.value());
        } else {
            Integer next = startingAt(inside, sym.value() + sym.size());
            String end = sym.size() > 0 && next != null ? names.get(next) : ".L_" + objectLabels.get(i);
            out.add("\t.size\t\t" + name + ",(" + end + " - " + name + ")");
        }
        if (sym.other() != 0) {
            out.add("\t.other\t\t" + name + ",@\"" + other(sym.other()) + "\"");
        }
        if (!name.equals(sym.name())) {
            out.add("\t.map_symbolname " + name + " " + sym.name());
        }
        out.add(name + ":");
    }

    static String other(int other) {
        List<String> names = new ArrayList<>();
        String storage = switch (other & 0xf0) {
            case Symbol.STO_CUDA_ENTRY -> "STO_CUDA_ENTRY";
            case Symbol.STO_CUDA_GLOBAL -> "STO_CUDA_GLOBAL";
            case Symbol.STO_CUDA_SHARED -> "STO_CUDA_SHARED";
            case Symbol.STO_CUDA_LOCAL -> "STO_CUDA_LOCAL";
            case Symbol.STO_CUDA_CONSTANT -> "STO_CUDA_CONSTANT";
            case Symbol.STO_CUDA_RESERVED_SHARED -> "STO_CUDA_RESERVED_SHARED";
            default -> null;
        };
        if (storage != null) {
            names.add(storage);
        }
        names.add(switch (other & 3) {
            case 1 -> "STV_INTERNAL";
            case 2 -> "STV_HIDDEN";
            case 3 -> "STV_PROTECTED";
            default -> "STV_DEFAULT";
        });
        return String.join(" ", names);
    }

    /** Marks a texture-header word ({@code R_CUDA_TEX_HEADER_INDEX}) among the 4-byte references. */
    private static final String TEXTURE = WORD + "[";

    private static boolean onlyTextures(Map<Long, String> dwords, long from, long to) {
        return dwords.entrySet().stream().filter(e -> e.getKey() >= from && e.getKey() < to)
                .allMatch(e -> e.getValue().startsWith(TEXTURE));
    }

    /**
     * A zero-filled stretch with texture-header words in it: nvdisasm prints the zeros as {@code .zero} and each
     * word, aligned, as {@code [20@lo(value)=texture]} (the index the driver writes into the low 20 bits).
     */
    private static void textureWords(long from, long to, Map<Long, String> dwords, List<String> out) {
        long at = from;
        for (long k : new TreeSet<>(dwords.keySet()).subSet(from, to)) {
            if (k > at) {
                out.add("\t.zero\t\t" + (k - at));
            }
            out.add("\t.align\t\t4");
            out.add(row((int) k, ".word", dwords.get(k).substring(WORD.length())));
            at = k + 4;
        }
        if (at < to) {
            out.add("\t.zero\t\t" + (to - at));
        }
    }

    private static boolean anyIn(Map<Long, String> dwords, long from, long to) {
        for (long k : dwords.keySet()) {
            if (k >= from && k < to) {
                return true;
            }
        }
        return false;
    }

    /**
     * 8-byte relocations into section {@code index}: offset -> what nvdisasm prints after {@code .dword}: the
     * symbol; {@code (sym + inner@srel)} when an addend points at another function symbol of the same section;
     * {@code fun@TYPE(sym)} for the other 64-bit kinds.
     */
    private Map<Long, String> relocatedSymbols(int index) {
        Map<Long, String> out = new HashMap<>();
        for (Section r : cubin.sections()) {
            if ((r.type() == SectionType.REL || r.type() == SectionType.RELA) && r.info() == index) {
                byte[] data = cubin.sections().get(index).data();
                for (Relocation rel : Relocations.decode(r)) {
                    if (rel.typeName().equals("R_CUDA_32") && rel.symbol() > 0 && rel.symbol() < symbols.size()
                            && (r.type() == SectionType.REL ? rel.offset() + 4 <= data.length
                                    && word(data, (int) rel.offset()) == 0 : rel.addend() == 0)) {
                        out.put(rel.offset(), WORD + symbolName(rel.symbol())); // a 4-byte reference
                        continue;
                    }
                    if (rel.typeName().equals("R_CUDA_TEX_HEADER_INDEX") && rel.symbol() > 0
                            && rel.symbol() < symbols.size() && rel.offset() + 4 <= data.length) {
                        long value = r.type() == SectionType.RELA ? rel.addend() : word(data, (int) rel.offset());
                        out.put(rel.offset(), WORD + "[20@lo(0x" + Long.toHexString(value & 0xfffff) + ")="
                                + symbolName(rel.symbol()) + "]");
                        continue;
                    }
                    if (rel.typeName().endsWith("64") && rel.symbol() > 0 && rel.symbol() < symbols.size()) {
                        String sym = symbolName(rel.symbol());
                        // REL keeps its addend in the relocated bytes
                        long addend = r.type() == SectionType.RELA ? rel.addend()
                                : rel.offset() + 8 <= data.length ? dword(data, (int) rel.offset()) : 0;
                        if (addend != 0) {
                            sym = "(" + sym + " + " + inner(symbols.get(rel.symbol()), addend) + ")";
                        }
                        out.put(rel.offset(), rel.typeName().equals("R_CUDA_64") ? sym
                                : "fun@" + rel.typeName() + "(" + sym + ")");
                    }
                }
            }
        }
        return out;
    }

    /**
     * The symbol names nvdisasm prints, by symbol index: a repeated name (not of a section symbol) gets {@code __0},
     * {@code __1}, ... with one counter for all, in symbol-table order.
     */
    static List<String> displayNames(List<Symbol> symbols) {
        Set<String> seen = new java.util.HashSet<>();
        List<String> out = new ArrayList<>();
        int repeats = 0;
        for (Symbol sym : symbols) {
            boolean repeated = !sym.name().isEmpty() && sym.symbolType() != Symbol.STT_SECTION && !seen.add(sym.name());
            out.add(repeated ? sym.name() + "__" + repeats++ : sym.name());
        }
        return out;
    }

    /** {@code inner@srel} for the function symbol at {@code base + addend} in {@code base}'s section, else the
     * addend in hex. */
    private String inner(Symbol base, long addend) {
        long at = base.value() + addend;
        for (int i = 0; i < symbols.size(); i++) {
            Symbol s = symbols.get(i);
            if (s.shndx() == base.shndx() && s.symbolType() == Symbol.STT_FUNC && s.value() == at && s != base) {
                return names.get(i) + "@srel";
            }
        }
        String label = relocations == null ? null : relocations.labelAt(base, addend);
        if (label != null) {
            return label + "@srel";
        }
        return "0x" + Long.toHexString(addend);
    }

    private String symbolName(int i) {
        return i >= 0 && i < symbols.size() ? names.get(i) : hex8(i);
    }

    private static long dword(byte[] b, int at) {
        return (word(b, at) & 0xffffffffL) | (long) word(b, at + 4) << 32;
    }

    /** Rows of up to 16 bytes from {@code from} to {@code to}, breaking at {@code .dword} relocation targets. */
    private static void bytes(byte[] b, int from, int to, Map<Long, String> dwords, boolean aligned,
                              List<String> out) {
        int at = from;
        while (at < to) {
            String sym = dwords.get((long) at);
            if (sym != null && sym.startsWith(WORD) && at + 4 <= to) {
                out.add(row(at, ".word", sym.substring(WORD.length())));
                at += 4;
                continue;
            }
            if (sym != null && !sym.startsWith(WORD) && at + 8 > to && allZero(b, at, to)) {
                // an 8-byte relocation past the symbol's end (ptxas's R_CUDA_G64 of a 32-bit variable): nvdisasm
                // 12.5 prints the zeros left in the symbol as .zero
                out.add("\t.zero\t\t" + (to - at));
                at = to;
                continue;
            }
            if (sym != null && at + 8 <= to) {
                if (aligned && at != from) {
                    out.add("\t.align\t\t8");
                }
                out.add(row(at, ".dword", sym));
                at += 8;
                continue;
            }
            int end = Math.min(to, at + 16);
            for (int k = at + 1; k < end; k++) {
                if (dwords.containsKey((long) k)) {
                    end = k;
                    break;
                }
            }
            StringBuilder line = new StringBuilder();
            for (int k = at; k < end; k++) {
                line.append(k > at ? ", " : "").append(hex2(b[k] & 0xff));
            }
            out.add(row(at, ".byte", line.toString()));
            at = end;
        }
    }

    private static String row(int at, String directive, String value) {
        return String.format(Locale.ROOT, "        /*%04x*/ \t%s\t%s", at, directive, value);
    }

    private static String hex2(int v) {
        return String.format(Locale.ROOT, "0x%02x", v);
    }

    private static String hex4(int v) {
        return String.format(Locale.ROOT, "0x%04x", v);
    }

    private static String hex8(int v) {
        return String.format(Locale.ROOT, "0x%08x", v);
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int k = from; k < to; k++) {
            if (b[k] != 0) {
                return false;
            }
        }
        return true;
    }

    private static String flags(long f) {
        return ((f & Section.SHF_ALLOC) != 0 ? "a" : "") + ((f & Section.SHF_WRITE) != 0 ? "w" : "")
                + ((f & Section.SHF_EXECINSTR) != 0 ? "x" : "");
    }

    /** Flags beyond a/w/x, by nvdisasm's names (SHF_INFO_LINK has none): null when there are none. */
    private static String extraFlags(long f) {
        long rest = f & ~(Section.SHF_ALLOC | Section.SHF_WRITE | Section.SHF_EXECINSTR);
        if (rest == 0) {
            return null;
        }
        List<String> names = new ArrayList<>();
        if ((rest & 0x1000000L) != 0) {
            names.add("SHF_NOTE_NV_CUVER");
        }
        if ((rest & 0x2000000L) != 0) {
            names.add("SHF_NOTE_NV_TKINFO");
        }
        return String.join(" ", names);
    }

    private static String type(Section s) {
        return switch (s.type()) {
            case SectionType.PROGBITS -> "@progbits";
            case SectionType.NOBITS -> "@nobits";
            case SectionType.NOTE -> "@\"SHT_NOTE\"";
            case SectionType.CUDA_INFO -> "@\"SHT_CUDA_INFO\"";
            case SectionType.CUDA_CALLGRAPH -> "@\"SHT_CUDA_CALLGRAPH\"";
            case SectionType.CUDA_PROTOTYPE -> "@\"SHT_CUDA_PROTOTYPE\"";
            case SectionType.CUDA_RELOCINFO -> "@\"SHT_CUDA_RELOCINFO\"";
            case SectionType.CUDA_GLOBAL -> "@\"SHT_CUDA_GLOBAL\"";
            case SectionType.CUDA_GLOBAL_INIT -> "@\"SHT_CUDA_GLOBAL_INIT\"";
            case SectionType.CUDA_LOCAL -> "@\"SHT_CUDA_LOCAL\"";
            case SectionType.CUDA_SHARED -> "@\"SHT_CUDA_SHARED\"";
            case SectionType.CUDA_COMPAT -> "@\"unrecognized:70000086\""; // nvdisasm 12.5 has no name for it
            default -> s.type() >= SectionType.CUDA_CONSTANT_B0 && s.type() <= SectionType.CUDA_CONSTANT_B0 + 17
                    ? "@\"SHT_CUDA_CONSTANT_B" + (s.type() - SectionType.CUDA_CONSTANT_B0) + "\""
                    : "@\"0x" + Integer.toHexString(s.type()) + "\"";
        };
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
