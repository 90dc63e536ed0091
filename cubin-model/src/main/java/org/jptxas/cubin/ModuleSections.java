package org.jptxas.cubin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.EiFormat;
import org.jptxas.cubin.info.GlobalInfo;
import org.jptxas.cubin.info.NvInfo;

/**
 * The module-wide sections of a {@link CubinBuilder} cubin: the notes, {@code .nv.info}, {@code .nv.compat},
 * {@code .nv.rel.action}, the call graph, the prototypes, global memory, constant banks 3 and 4 and the reserved
 * shared memory.
 */
final class ModuleSections {
    private ModuleSections() {}

    /** Section {@code n} if it is a module-wide section, else null. */
    static Section section(SectionContext c, String n, int name) {
        CubinBuilder b = c.b();
        switch (n) {
            case ".note.nv.tkinfo" -> {
                byte[] d = Note.encode(List.of(tkinfo(b.options)));
                return new Section(n, name, SectionType.NOTE, 0x02000000L, 0, d.length, 0, 0, 4, 0, d);
            }
            case ".note.nv.cuinfo" -> {
                byte[] d = Note.encode(List.of(Note.cuinfo(b.ptxTarget, org.jptxas.cubin.info.FunctionInfo.CUDA_API_VERSION_13_0)));
                // From sm_90 on it also points (SHF_INFO_LINK) at .nv.compat.
                return new Section(n, name, SectionType.NOTE, b.flavor.hopperLayout() ? 0x01000040L : 0x01000000L, 0,
                        d.length, c.section(".note.nv.tkinfo"), c.plan().index().getOrDefault(".nv.compat", 0), 4, 0, d);
            }
            case ".nv.info" -> {
                byte[] d = NvInfo.encode(globalInfo(c));
                return new Section(n, name, SectionType.CUDA_INFO, 0, 0, d.length, c.symtab(), 0, 4, 0, d);
            }
            case CubinBuilder.RESERVED_SHARED -> {
                return new Section(n, name, SectionType.NOBITS, Section.SHF_WRITE | Section.SHF_ALLOC, 0,
                        b.reservedSharedBytes(), 0, 0, 1, 0, null);
            }
            case CubinBuilder.DEBUG_SHARED -> {
                // Empty but for the window the system reserves; aligned as dynamic shared memory (at least 16; with -g
                // ptxas 13 aligns it to 16 even for a variable aligned to 32).
                return new Section(n, name, SectionType.NOBITS, Section.SHF_WRITE | Section.SHF_ALLOC, 0,
                        b.flavor.reservedShared(), 0, 0, b.namesDebugShared() ? 16 : Math.max(16, b.externSharedAlignment),
                        0, null);
            }
            case ".nv.compat" -> {
                byte[] d = NvInfo.encode(compat(b.flavor));
                return new Section(n, name, SectionType.CUDA_COMPAT, 0, 0, d.length, 0, 0, 4, 0, d);
            }
            case ".nv.rel.action" -> {
                return new Section(n, name, SectionType.CUDA_RELOCINFO, 0, 0, CubinBuilder.REL_ACTION.length, 0, 0, 8, 8,
                        CubinBuilder.REL_ACTION);
            }
            case ".nv.global" -> {
                long size = 0;
                long align = 1;
                for (CubinBuilder.GlobalVariable g : b.globals) {
                    if (g.init() == null) {
                        size = LayoutPlanner.align(size, g.alignment()) + g.size();
                        align = Math.max(align, g.alignment());
                    }
                }
                return new Section(n, name, b.relocatable ? SectionType.CUDA_GLOBAL : SectionType.NOBITS,
                        Section.SHF_WRITE | Section.SHF_ALLOC, 0, size, 0, 0, align, 0, null);
            }
            case ".nv.global.init" -> {
                ByteWriter w = new ByteWriter();
                long align = 1;
                for (CubinBuilder.GlobalVariable g : b.globals) {
                    if (g.init() != null) {
                        w.padTo(LayoutPlanner.align(w.size(), g.alignment()));
                        w.bytes(g.init());
                        align = Math.max(align, g.alignment());
                    }
                }
                byte[] d = w.toByteArray();
                return new Section(n, name, b.relocatable ? SectionType.CUDA_GLOBAL_INIT : SectionType.PROGBITS,
                        Section.SHF_WRITE | Section.SHF_ALLOC, 0, d.length, 0, 0, align, 0, d);
            }
            case ".nv.constant3" -> {
                return new Section(n, name, b.relocatable ? SectionType.CUDA_CONSTANT_B0 + 3 : SectionType.PROGBITS,
                        Section.SHF_ALLOC, 0, b.bank3.length, 0, 0, 4, 0, b.bank3);
            }
            case ".nv.constant4" -> {
                int size = 8 * b.addressTable.size();
                return new Section(n, name, b.relocatable ? SectionType.CUDA_CONSTANT_B0 + 4 : SectionType.PROGBITS,
                        Section.SHF_ALLOC, 0, size, 0, 0, 8, 0, new byte[size]);
            }
            case ".nv.prototype" -> {
                return prototypes(c, n, name);
            }
            case ".nv.callgraph" -> {
                return callGraph(c, n, name);
            }
            default -> {
                return null;
            }
        }
    }

    private static Section prototypes(SectionContext c, String n, int name) {
        // By symbol index (the strings are in .strtab in the order given).
        java.util.TreeMap<Integer, String> bySymbol = new java.util.TreeMap<>();
        for (Map.Entry<String, String> p : c.b().prototypes.entrySet()) {
            Integer sym = c.symbol(p.getKey());
            if (sym == null) {
                throw new IllegalArgumentException("prototype of unknown function " + p.getKey());
            }
            bySymbol.put(sym, p.getValue());
        }
        ByteWriter w = new ByteWriter();
        bySymbol.forEach((sym, p) -> w.u32(sym).u32(c.symbols().prototypeString.get(p)));
        byte[] d = w.toByteArray();
        return new Section(n, name, SectionType.CUDA_PROTOTYPE, 0, 0, d.length, c.symtab(), 0, 4, 8, d);
    }

    private static Section callGraph(SectionContext c, String n, int name) {
        ByteWriter w = new ByteWriter();
        ByteWriter calls = new ByteWriter();
        for (FunctionFacts f : c.b().functions) {
            for (String callee : f.callees()) {
                if (c.symbol(callee) != null) {
                    calls.u32(c.symbol(f.name())).u32(c.symbol(callee));
                }
            }
        }
        boolean relocatable = c.b().relocatable;
        for (int k = 1; k <= 4; k++) {
            w.u32(0).u32(-k);
            // Relocatable output lists the direct calls after the first marker.
            if (k == 1 && relocatable || k == 4 && !relocatable) {
                w.bytes(calls.toByteArray());
            }
        }
        byte[] d = w.toByteArray();
        return new Section(n, name, SectionType.CUDA_CALLGRAPH, 0, 0, d.length, c.symtab(), 0, 4, 8, d);
    }

    private static List<Attribute> globalInfo(SectionContext c) {
        CubinBuilder b = c.b();
        List<Attribute> records = new ArrayList<>(GlobalInfo.records(b.functions, b.relocatable, c::symbol));
        if (b.texmodeIndependent) {
            // After the functions' records, before the kernels' MIN_STACK_SIZE.
            int at = records.size();
            while (at > 0 && records.get(at - 1).code() == CubinBuilder.GLOBAL_MIN_STACK_SIZE) {
                at--;
            }
            records.add(at, new Attribute.Flag(CubinBuilder.TEXMODE_INDEPENDENT));
        }
        if (!b.v7() && b.functions.stream().noneMatch(FunctionFacts::entry)) {
            // Without kernels ptxas records the Mercury ISA version module-wide.
            records.add(new Attribute.Inline(0x5f, EiFormat.HVAL,
                    org.jptxas.cubin.tables.CubinTables.nvInfoRules(b.sm).mercuryIsaVersion()));
        }
        return records;
    }

    /** The seven .nv.compat records ptxas 13 writes on sm_90+. */
    private static List<Attribute> compat(CubinFlavor flavor) {
        byte[] fastpath = new byte[8];
        fastpath[0] = (byte) flavor.compatFastpath();
        return List.of(
                new Attribute.Inline(9, EiFormat.BVAL, 0),
                new Attribute.Inline(2, EiFormat.BVAL, 1),
                new Attribute.Inline(5, EiFormat.BVAL, 5),
                new Attribute.Inline(7, EiFormat.HVAL, 0x0101),
                new Attribute.Inline(3, EiFormat.BVAL, 0),
                new Attribute.Inline(6, EiFormat.BVAL, 1),
                new Attribute.Raw(4, 11, 8, fastpath));
    }

    /** tkinfo: version 2, zero, offsets of tool name, toolkit, build and options in the string area. */
    private static Note tkinfo(String options) {
        String[] strings = {"jptxas", "jptxas, an open PTX assembler", "jptxas 0.1.0", options};
        ByteWriter area = new ByteWriter();
        int[] offsets = new int[strings.length];
        for (int i = 0; i < strings.length; i++) {
            offsets[i] = area.size();
            area.bytes(strings[i].getBytes(StandardCharsets.UTF_8)).u8(0);
        }
        ByteWriter d = new ByteWriter().u32(2).u32(0);
        for (int o : offsets) {
            d.u32(o);
        }
        d.bytes(area.toByteArray());
        d.padTo((d.size() + 3) & ~3);
        return new Note("NVIDIA Corp", Note.NT_CUDA_TKINFO, d.toByteArray());
    }
}
