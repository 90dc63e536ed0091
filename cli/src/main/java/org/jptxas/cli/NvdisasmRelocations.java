package org.jptxas.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.sass.LabelNamer;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassListing;
import org.jptxas.sass.SassPrinter;

/**
 * What nvdisasm 12.5 prints from a cubin's relocations (rules read off its listings of ptxas 13 cubins):
 * <ul>
 * <li>a relocated instruction operand prints as its symbol expression {@code E} instead of the raw field:
 * {@code 32@lo(E)}/{@code 32@hi(E)} for the {@code _LO_32}/{@code _HI_32} types, {@code c[...+`(E)]} (without the
 * bank) for the constant-field types, {@code `(E)} for the other address types (calls, shared-memory offsets);
 * {@code E} is the symbol, {@code (sym + 0x10)} / {@code (sym + -0x8000)} with an addend, or
 * {@code (f + .L_x_N@srel)} when the addend points into code (a call's return address);</li>
 * <li>those code addresses get {@code .L_x_N} labels, numbered before every branch target of the file (in section
 * order, then by address); addresses in code that relocated data words ({@code .debug_info}) point at are numbered
 * after the branch targets, in the order the words come.</li>
 * </ul>
 * The operand is found by printing the instruction twice with two different values in the relocated field: the
 * text that changes is the operand's (so no per-form table of relocated fields is needed).
 */
final class NvdisasmRelocations {
    /** Two field values whose printings differ in every digit of the field (high bits clear: no sign change). */
    private static final long SENTINEL_A = 0x3333333333333333L;
    private static final long SENTINEL_B = 0x5555555555555555L;

    private final Cubin cubin;
    private final List<Symbol> symbols;
    private final List<String> names;
    /** Text section index -> instruction address -> the relocations of its fields (with their RELA-ness). */
    private final Map<Integer, Map<Long, List<Rel>>> code = new HashMap<>();
    /** Text section index -> address -> label created for a relocation target. */
    private final Map<Integer, Map<Long, String>> labels = new HashMap<>();
    /** Text section index -> address -> the label data relocations name there (created or the code's own). */
    private final Map<Integer, Map<Long, String>> dataNames = new HashMap<>();
    private int count;

    /** One relocation and whether its section carries addends. */
    private record Rel(Relocation r, boolean rela) {
        long addend() {
            return rela ? r.addend() : 0;
        }
    }

    NvdisasmRelocations(Cubin cubin, List<String> names) {
        this.cubin = cubin;
        this.symbols = cubin.symbols();
        this.names = names;
        List<Section> sections = cubin.sections();
        for (Section rs : sections) {
            if ((rs.type() == SectionType.REL || rs.type() == SectionType.RELA) && rs.info() > 0
                    && rs.info() < sections.size() && sections.get(rs.info()).isText()) {
                for (Relocation r : Relocations.decode(rs)) {
                    code.computeIfAbsent((int) rs.info(), k -> new TreeMap<>())
                            .computeIfAbsent(r.offset() & ~15L, k -> new ArrayList<>())
                            .add(new Rel(r, rs.type() == SectionType.RELA));
                }
            }
        }
        // labels of code targets, in section order then by the referring instruction's address
        for (int i = 0; i < sections.size(); i++) {
            Map<Long, List<Rel>> at = code.get(i);
            if (at == null) {
                continue;
            }
            for (List<Rel> rels : at.values()) {
                for (Rel rel : rels) {
                    Symbol s = codeSymbol(rel.r().symbol()) ? symbols.get(rel.r().symbol()) : null;
                    if (rel.addend() != 0 && s != null && !functionAt(s.shndx(), s.value() + rel.addend())) {
                        labels.computeIfAbsent(s.shndx(), k -> new HashMap<>())
                                .computeIfAbsent(s.value() + rel.addend(), k -> ".L_x_" + count++);
                    }
                }
            }
        }
    }

    /** How many labels the code relocations created (branch labels are numbered after them). */
    int labelCount() {
        return count;
    }

    /** The labels created in text section {@code s}: address -> name. */
    Map<Long, String> labelsIn(Section s) {
        return labels.getOrDefault(cubin.sectionIndex(s.name()), Map.of());
    }

    /**
     * Labels for code addresses that data relocations point at ({@code sym + addend} into a text section), numbered
     * from {@code first} in section order and relocation order, reusing labels the code already has ({@code known}:
     * text section index -> address -> label). Returns the next free number.
     */
    int dataLabels(int first, Map<Integer, Map<Long, String>> known) {
        int next = first;
        List<Section> sections = cubin.sections();
        for (Section rs : sections) {
            if (rs.type() != SectionType.RELA || rs.info() <= 0 || rs.info() >= sections.size()
                    || sections.get(rs.info()).isText()) {
                continue;
            }
            // in the order of the words (ptxas writes the relocations last word first)
            List<Relocation> rels = Relocations.decode(rs).stream()
                    .sorted(java.util.Comparator.comparingLong(Relocation::offset)).toList();
            for (Relocation r : rels) {
                if (r.addend() != 0 && codeSymbol(r.symbol()) && r.typeName().endsWith("64")) {
                    Symbol s = symbols.get(r.symbol());
                    long at = s.value() + r.addend();
                    if (functionAt(s.shndx(), at)) {
                        continue; // named by that function's symbol
                    }
                    Map<Long, String> mine = labels.computeIfAbsent(s.shndx(), k -> new HashMap<>());
                    Map<Long, String> named = dataNames.computeIfAbsent(s.shndx(), k -> new HashMap<>());
                    String have = mine.containsKey(at) ? mine.get(at)
                            : known.getOrDefault(s.shndx(), Map.of()).get(at);
                    if (have == null) {
                        // a new label (not a branch target: those keep the number the listing gives them)
                        have = ".L_x_" + next++;
                        mine.put(at, have);
                    }
                    named.putIfAbsent(at, have);
                }
            }
        }
        return next;
    }

    /** The label of code address {@code base.value() + addend} (in {@code base}'s section), or null. */
    String labelAt(Symbol base, long addend) {
        String l = labels.getOrDefault(base.shndx(), Map.of()).get(base.value() + addend);
        return l != null ? l : dataNames.getOrDefault(base.shndx(), Map.of()).get(base.value() + addend);
    }

    private boolean functionAt(int shndx, long address) {
        return symbols.stream().anyMatch(x -> x.shndx() == shndx && x.symbolType() == Symbol.STT_FUNC
                && x.value() == address);
    }

    private boolean codeSymbol(int index) {
        if (index <= 0 || index >= symbols.size()) {
            return false;
        }
        int shndx = symbols.get(index).shndx();
        return shndx > 0 && shndx < cubin.sections().size() && cubin.sections().get(shndx).isText();
    }

    /** The relocation that tells the linker to turn a YIELD into a NOP (its addend: the new opcode bits). */
    private static final String YIELD_OPCODE = "R_CUDA_YIELD_OPCODE9_0";

    /**
     * The notes nvdisasm prints after instructions of text section {@code s} whose opcode a relocation rewrites:
     * {@code RELOCATOR OPCODE,YIELD,280} for an {@code R_CUDA_YIELD_OPCODE9_0} with addend 0x118 (in decimal).
     */
    Map<Long, String> notes(Section s) {
        Map<Long, String> out = new HashMap<>();
        code.getOrDefault(cubin.sectionIndex(s.name()), Map.of()).forEach((address, rels) -> {
            for (Rel r : rels) {
                if (r.r().typeName().equals(YIELD_OPCODE)) {
                    out.put(address, "RELOCATOR OPCODE,YIELD," + r.addend());
                }
            }
        });
        return out;
    }

    /** Whether any text section has {@link #notes}. */
    boolean anyNotes() {
        return code.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream)
                .anyMatch(r -> r.r().typeName().equals(YIELD_OPCODE));
    }

    /** The hook that prints text section {@code s}'s relocated operands. */
    SassListing.TextHook hook(Section s, SassIsa isa) {
        Map<Long, List<Rel>> at = code.getOrDefault(cubin.sectionIndex(s.name()), Map.of());
        return (address, inst, text, namer) -> {
            List<Rel> rels = at.get(address);
            return rels == null ? text : rewrite(isa, address, inst, text, rels, namer);
        };
    }

    private String rewrite(SassIsa isa, long address, SassInstruction inst, String text, List<Rel> rels,
                           LabelNamer namer) {
        List<Rel> printed = rels.stream().filter(r -> kind(r.r().typeName()) != Kind.NONE).toList();
        if (printed.isEmpty()) {
            return text;
        }
        String base = print(isa, inst, address, printed, null, namer);
        if (base == null) {
            return unsizedAddress(text, printed);
        }
        // the operands' spans in the all-A printing, replaced from the right
        TreeMap<Integer, int[]> spans = new TreeMap<>();
        Map<Integer, Rel> of = new HashMap<>();
        for (Rel r : printed) {
            String other = print(isa, inst, address, printed, r, namer);
            int[] span = other == null ? null : span(base, other, kind(r.r().typeName()));
            if (span == null) {
                return text; // not found: the raw field rather than a guess
            }
            spans.put(span[0], span);
            of.put(span[0], r);
        }
        StringBuilder sb = new StringBuilder(base);
        for (int start : spans.descendingKeySet()) {
            int[] span = spans.get(start);
            Rel r = of.get(start);
            sb.replace(span[0], span[1], operand(kind(r.r().typeName()), base.substring(span[0], span[1]), r));
            if (span[0] >= 4 && sb.substring(span[0] - 4, span[0]).equals("[RZ+")) {
                sb.delete(span[0] - 3, span[0]); // a symbol address on its own: [`(sym)], not [RZ+`(sym)]
            }
        }
        String out = sb.toString();
        // nvdisasm names IMAD R, RZ, RZ, c[...] IMAD.MOV by the constant's value, which a relocated one has not
        if (printed.stream().anyMatch(r -> kind(r.r().typeName()) == Kind.CONST)) {
            out = out.replaceFirst("^((?:@!?U?P\\w+ )?IMAD)\\.MOV(\\.U32)? ", "$1$2 ");
        }
        return out;
    }

    /**
     * When the tables know the instruction only without an offset (a zero field prints no {@code +0x...}), an
     * offset relocated into its memory operand still prints: {@code [R8.X4+`(sym)]}, {@code [`(sym)]}. With two
     * memory operands (LDGSTS: the shared destination, then the global source) the relocated one is the one that
     * has no register of its own ({@code [RZ]}), as a shared offset relocation only goes there.
     */
    private String unsizedAddress(String text, List<Rel> rels) {
        if (rels.size() != 1 || kind(rels.get(0).r().typeName()) != Kind.ADDRESS
                || !(rels.get(0).r().typeName().startsWith("R_CUDA_ABS24_")
                        || rels.get(0).r().typeName().startsWith("R_CUDA_ABS20_"))) {
            return text;
        }
        List<int[]> operands = new java.util.ArrayList<>();
        for (int open = text.indexOf('['); open >= 0; open = text.indexOf('[', open + 1)) {
            int close = text.indexOf(']', open + 1);
            if (close < 0) {
                return text;
            }
            operands.add(new int[] {open, close});
        }
        int[] chosen = null;
        if (operands.size() == 1) {
            chosen = operands.get(0);
        } else {
            for (int[] o : operands) {
                if (text.substring(o[0] + 1, o[1]).equals("RZ")) {
                    if (chosen != null) {
                        return text; // two candidates: the raw fields rather than a guess
                    }
                    chosen = o;
                }
            }
        }
        if (chosen == null || text.substring(chosen[0], chosen[1]).contains("0x")) {
            return text;
        }
        int open = chosen[0];
        int close = chosen[1];
        String inner = text.substring(open + 1, close);
        String symbol = "`(" + expression(rels.get(0)) + ")";
        return text.substring(0, open + 1) + (inner.equals("RZ") ? symbol : inner + "+" + symbol)
                + text.substring(close);
    }

    /** The instruction printed with every relocated field at A, {@code b} (if any) at B; null if undecodable. */
    private static String print(SassIsa isa, SassInstruction inst, long address, List<Rel> rels, Rel b,
                                LabelNamer namer) {
        byte[] bytes = new byte[16];
        for (int k = 0; k < 8; k++) {
            bytes[k] = (byte) (inst.lo() >>> 8 * k);
            bytes[8 + k] = (byte) (inst.hi() >>> 8 * k);
        }
        try {
            for (Rel r : rels) {
                Relocations.apply(bytes, r.r().offset() - address, r.r().type(), r == b ? SENTINEL_B : SENTINEL_A);
            }
        } catch (RuntimeException e) {
            return null; // a field jptxas does not know how to write
        }
        SassInstruction d = isa.decode(SassIsa.le64(bytes, 0), SassIsa.le64(bytes, 8));
        return d instanceof SassInstruction.Known ? SassPrinter.text(d, address, namer) : null;
    }

    /**
     * Where {@code a} and {@code b} differ, widened to whole tokens: a hex number (with its sign), or for a
     * constant field the whole {@code c[bank][...]} operand.
     */
    static int[] span(String a, String b, Kind kind) {
        int p = 0;
        while (p < a.length() && p < b.length() && a.charAt(p) == b.charAt(p)) {
            p++;
        }
        int q = 0;
        while (q < a.length() - p && q < b.length() - p && a.charAt(a.length() - 1 - q) == b.charAt(b.length() - 1 - q)) {
            q++;
        }
        if (p == a.length() && p == b.length()) {
            return null;
        }
        int end = a.length() - q;
        if (kind == Kind.CONST) {
            int c = a.lastIndexOf("c[", p);
            int close = c < 0 ? -1 : a.indexOf(']', a.indexOf("][", c) + 2);
            return c < 0 || close < 0 || a.indexOf("][", c) < 0 || close < end - 1 ? null : new int[] {c, close + 1};
        }
        while (p > 0 && hexChar(a.charAt(p - 1))) {
            p--;
        }
        if (p > 0 && a.charAt(p - 1) == '-') {
            p--;
        }
        while (end < a.length() && hexChar(a.charAt(end))) {
            end++;
        }
        return a.startsWith("0x", p) || a.startsWith("-0x", p) ? new int[] {p, end} : null;
    }

    private static boolean hexChar(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x';
    }

    /** How nvdisasm prints a relocated field. */
    enum Kind { LO, HI, CONST, ADDRESS, NONE }

    static Kind kind(String type) {
        String t = type.substring("R_CUDA_".length());
        if (t.endsWith("_LO_32")) {
            return Kind.LO;
        }
        if (t.endsWith("_HI_32")) {
            return Kind.HI;
        }
        if (t.startsWith("CONST_FIELD")) {
            return Kind.CONST;
        }
        return t.startsWith("ABS") || t.startsWith("UNIFIED") || t.contains("BINDLESSOFF") ? Kind.ADDRESS : Kind.NONE;
    }

    private String operand(Kind kind, String raw, Rel r) {
        String e = expression(r);
        if (r.r().typeName().startsWith("R_CUDA_UNIFIED")) {
            e = "fun@unified(" + e + ")"; // a function's address for an indirect call
        }
        return switch (kind) {
            case LO -> "32@lo(" + e + ")";
            case HI -> "32@hi(" + e + ")";
            case CONST -> {
                // c[bank][inner]: nvdisasm drops the bank and puts the symbol where the offset was
                String inner = raw.substring(raw.indexOf("][") + 2, raw.length() - 1);
                int[] off = lastHex(inner);
                yield "c[" + (off == null ? "`(" + e + ")"
                        : inner.substring(0, off[0]) + "`(" + e + ")" + inner.substring(off[1])) + "]";
            }
            default -> "`(" + e + ")";
        };
    }

    private static int[] lastHex(String s) {
        int at = s.lastIndexOf("0x");
        if (at < 0) {
            return null;
        }
        int end = at + 2;
        while (end < s.length() && hexChar(s.charAt(end))) {
            end++;
        }
        return new int[] {at > 0 && s.charAt(at - 1) == '-' ? at - 1 : at, end};
    }

    /** {@code sym}, {@code (sym + 0x10)}, {@code (sym + -0x10)} or {@code (f + .L_x_N@srel)}. */
    private String expression(Rel rel) {
        int i = rel.r().symbol();
        String name = i >= 0 && i < names.size() ? names.get(i) : String.format(Locale.ROOT, "0x%08x", i);
        long addend = rel.addend();
        if (addend == 0) {
            return name;
        }
        String label = codeSymbol(i) ? labelAt(symbols.get(i), addend) : null;
        if (label == null && codeSymbol(i)) {
            Symbol base = symbols.get(i);
            for (int k = 0; k < symbols.size() && label == null; k++) {
                Symbol f = symbols.get(k);
                if (f.shndx() == base.shndx() && f.symbolType() == Symbol.STT_FUNC && f.value() == base.value() + addend) {
                    label = names.get(k);
                }
            }
        }
        return "(" + name + " + " + (label != null ? label + "@srel"
                : addend < 0 ? "-0x" + Long.toHexString(-addend) : "0x" + Long.toHexString(addend)) + ")";
    }
}
