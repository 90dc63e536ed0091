package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The relocations of module data ({@code .rel[a].nv.global.init}, {@code .rel[a].nv.constant3}): one R_CUDA_G64 per
 * {@link CubinBuilder.DataAddress}, as ptxas 13 writes them for {@code generic(x)+N} in initializers.
 */
final class DataRelocations {
    static final String GLOBAL_INIT = ".nv.global.init";
    static final String CONSTANT3 = ".nv.constant3";

    private DataRelocations() {}

    /** The data section an address is written into. */
    private static String target(CubinBuilder.DataAddress a) {
        return a.constant() ? CONSTANT3 : GLOBAL_INIT;
    }

    /** Whether {@code a} goes to the RELA section: from sm_90 on all do, below only those with an addend. */
    private static boolean rela(CubinBuilder b, CubinBuilder.DataAddress a) {
        return b.flavor.hopperLayout() && !b.v7() || a.addend() != 0;
    }

    private static String sectionName(CubinBuilder b, CubinBuilder.DataAddress a) {
        return (rela(b, a) ? ".rela" : ".rel") + target(a);
    }

    /**
     * The relocation sections in ptxas's order: it makes them as it meets the addresses (data section by data
     * section, in the order of their first address in the PTX; inside one, by place in the section) and lists the
     * last made first (measured with ptxas 13 on sm_80: {@code .rela} before {@code .rel} when the lower address
     * has no addend).
     */
    static List<String> sectionNames(CubinBuilder b) {
        Set<String> targets = new LinkedHashSet<>();
        b.dataAddresses.forEach(a -> targets.add(target(a)));
        Map<String, Long> holders = holderOffsets(b);
        List<String> made = new ArrayList<>();
        for (String t : targets) {
            b.dataAddresses.stream().filter(a -> target(a).equals(t))
                    .sorted(Comparator.comparingLong(a -> holders.get(a.holder()) + a.offset()))
                    .map(a -> sectionName(b, a)).filter(n -> !made.contains(n)).forEach(made::add);
        }
        Collections.reverse(made);
        return made;
    }

    /** Offsets of the variables in their data section (laid out as {@link SymbolPlan} places them). */
    static Map<String, Long> holderOffsets(CubinBuilder b) {
        Map<String, Long> out = new HashMap<>();
        long top = 0;
        for (CubinBuilder.GlobalVariable g : b.globals) {
            if (g.init() != null) {
                long at = LayoutPlanner.align(top, g.alignment());
                out.put(g.name(), at);
                top = at + g.init().length;
            }
        }
        for (CubinBuilder.ConstantVariable c : b.constantVariables) {
            out.put(c.name(), c.offset());
        }
        return out;
    }

    /** Section {@code n} if it is a data relocation section, else null. */
    static Section section(SectionContext c, String n, int name) {
        boolean withAddend = n.startsWith(".rela.");
        String target = n.substring(withAddend ? ".rela".length() : ".rel".length());
        if (!target.equals(GLOBAL_INIT) && !target.equals(CONSTANT3)) {
            return null;
        }
        CubinBuilder b = c.b();
        Map<String, Long> holders = holderOffsets(b);
        int g64 = Relocation.typeCode("R_CUDA_G64");
        // holders in declaration order, each from its last address to its first (ptxas 13, sm_90's single section)
        List<Relocation> list = new ArrayList<>();
        List<Relocation> holder = new ArrayList<>();
        String current = null;
        for (CubinBuilder.DataAddress a : b.dataAddresses) {
            if (!a.holder().equals(current)) {
                Collections.reverse(holder);
                list.addAll(holder);
                holder.clear();
                current = a.holder();
            }
            if (!target(a).equals(target) || rela(b, a) != withAddend) {
                continue;
            }
            Integer sym = c.symbol(a.symbol());
            if (sym == null) {
                throw new IllegalArgumentException("address of unknown symbol " + a.symbol() + " in " + a.holder());
            }
            holder.add(new Relocation(holders.get(a.holder()) + a.offset(), sym, g64, a.addend()));
        }
        Collections.reverse(holder);
        list.addAll(holder);
        byte[] bytes = Relocations.encode(list, withAddend);
        return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                bytes.length, c.symtab(), c.section(target), 8, Relocations.entrySize(withAddend), bytes);
    }
}
