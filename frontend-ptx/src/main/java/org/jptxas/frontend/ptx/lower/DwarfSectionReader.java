package org.jptxas.frontend.ptx.lower;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.ModuleItem;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.SectionDirective;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.ir.DwarfSections;

/**
 * Reads the DWARF sections of a PTX module ({@link DwarfSections}): the sections ptxas 13 copies into a {@code -g}
 * cubin ({@link #COPIED}; blocks of one name joined in source order, empty ones dropped), their {@code .bN} data
 * little-endian. A word naming a label of a debug section holds that label's offset in it; one naming another debug
 * section, a label of a function body or a module name (a kernel parameter) is left to code generation.
 */
public final class DwarfSectionReader {
    private DwarfSectionReader() {}

    /** The sections ptxas 13 copies, in the order it writes them (measured on NVVM's and zluda's debug PTX). */
    public static final List<String> COPIED = List.of(".debug_abbrev", ".debug_info", ".debug_pubnames",
            ".debug_macinfo");

    private record CodePlace(String function, int line, boolean endsBody) {}

    public static DwarfSections of(PtxModule module) {
        Map<String, List<SectionDirective>> blocks = new LinkedHashMap<>();
        Map<String, CodePlace> codeLabels = new HashMap<>();
        Set<String> debugSections = new java.util.HashSet<>();
        for (ModuleItem item : module.items()) {
            if (item instanceof SectionDirective s) {
                debugSections.add(s.name());
                if (COPIED.contains(s.name())) {
                    blocks.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
                }
            } else if (item instanceof FunctionDecl f && f.isDefinition()) {
                labels(f.name(), f.body(), f.body(), codeLabels);
            }
        }
        if (blocks.isEmpty()) {
            return DwarfSections.NONE;
        }
        Map<String, Integer> dataLabels = dataLabelOffsets(blocks);
        List<DwarfSections.Section> sections = new ArrayList<>();
        for (String name : COPIED) {
            List<SectionDirective> parts = blocks.getOrDefault(name, List.of());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            List<DwarfSections.Address> addresses = new ArrayList<>();
            for (SectionDirective s : parts) {
                for (SectionDirective.SectionEntry e : s.entries()) {
                    if (!(e instanceof SectionDirective.Data d)) {
                        continue;
                    }
                    int width = width(d.type());
                    for (Expr v : d.values()) {
                        int at = out.size();
                        long value = 0;
                        if (v instanceof Expr.IntLit lit) {
                            value = lit.value();
                        } else if (v instanceof Expr.SymbolRef ref) {
                            String n = ref.name();
                            if (dataLabels.containsKey(n)) {
                                value = dataLabels.get(n);
                            } else if (codeLabels.containsKey(n)) {
                                CodePlace p = codeLabels.get(n);
                                addresses.add(new DwarfSections.CodeLabel(at, width, p.function(), p.line(), p.endsBody()));
                            } else if (debugSections.contains(n) || n.startsWith(".debug_")) {
                                addresses.add(new DwarfSections.SectionOffset(at, width, n));
                            } else {
                                addresses.add(new DwarfSections.Symbol(at, width, n));
                            }
                        }
                        for (int k = 0; k < width; k++) {
                            out.write(k < 8 ? (int) (value >>> (8 * k)) : 0); // a .b128 word's upper half is 0
                        }
                    }
                }
            }
            if (out.size() > 0) {
                sections.add(new DwarfSections.Section(name, out.toByteArray(), addresses));
            }
        }
        return new DwarfSections(sections);
    }

    /** The offset of each label defined in a copied section, in its (joined) section. */
    private static Map<String, Integer> dataLabelOffsets(Map<String, List<SectionDirective>> blocks) {
        Map<String, Integer> out = new HashMap<>();
        for (List<SectionDirective> parts : blocks.values()) {
            int at = 0;
            for (SectionDirective s : parts) {
                for (SectionDirective.SectionEntry e : s.entries()) {
                    if (e instanceof SectionDirective.Label l) {
                        out.put(l.name(), at);
                    } else if (e instanceof SectionDirective.Data d) {
                        at += width(d.type()) * d.values().size();
                    }
                }
            }
        }
        return out;
    }

    private static void labels(String function, Block body, Block block, Map<String, CodePlace> out) {
        List<Statement> statements = block.statements();
        for (int i = 0; i < statements.size(); i++) {
            Statement s = statements.get(i);
            if (s instanceof LabelDef l) {
                boolean last = block == body && i == statements.size() - 1;
                out.put(l.name(), new CodePlace(function, l.pos().line(), last));
            } else if (s instanceof Block b) {
                labels(function, body, b, out);
            }
        }
    }

    /** The byte width of a data type: {@code .b8} 1 ... {@code .b64} 8. */
    private static int width(String type) {
        String digits = type.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? 1 : Integer.parseInt(digits) / 8;
    }
}
