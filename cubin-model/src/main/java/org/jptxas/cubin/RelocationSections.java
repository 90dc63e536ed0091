package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;

/**
 * The relocation sections of a {@link CubinBuilder} cubin: of the code ({@code .rel[a].text.<function>}), of
 * constant bank 4, of module data ({@link DataRelocations}), of {@code .debug_frame}, of the line tables and of the PTX's DWARF.
 */
final class RelocationSections {
    private RelocationSections() {}

    /** Section {@code n} if it is a relocation section of module data or debug tables, else null. */
    static Section section(SectionContext c, String n, int name) {
        return switch (n) {
            case ".rel.debug_line", ".rela.debug_line", ".rel.nv_debug_line_sass", ".rela.nv_debug_line_sass" ->
                    lineTable(c, n, name);
            case ".rel.debug_frame", ".rela.debug_frame" -> debugFrame(c, n, name);
            case ".rel.nv.constant4", ".rela.nv.constant4" -> addressTable(c, n, name);
            case ".rel.nv.global.init", ".rela.nv.global.init", ".rel.nv.constant3", ".rela.nv.constant3" ->
                    DataRelocations.section(c, n, name);
            default -> n.startsWith(".rela.debug_") && c.debug().dwarf(n.substring(".rela".length())) != null
                    ? dwarf(c, c.debug().dwarf(n.substring(".rela".length())), name) : null;
        };
    }

    /** {@code .rela.<dwarf section>}: from the last word to the first (ptxas 13). */
    private static Section dwarf(SectionContext c, CubinBuilder.DwarfSection d, int name) {
        List<Relocation> list = new ArrayList<>();
        for (CubinBuilder.DwarfRelocation r : d.relocations()) {
            Integer sym = c.symbol(r.symbol());
            if (sym == null) {
                throw new IllegalArgumentException(d.name() + " relocated against unknown symbol " + r.symbol());
            }
            list.add(new Relocation(r.offset(), sym, Relocation.typeCode(r.type()), r.addend()));
        }
        list.sort(java.util.Comparator.comparingLong(Relocation::offset).reversed());
        return relocations(c, ".rela" + d.name(), name, list, c.section(d.name()));
    }

    private static Section relocations(SectionContext c, String n, int name, List<Relocation> list, int target) {
        boolean withAddend = n.startsWith(".rela.");
        byte[] b = Relocations.encode(list, withAddend);
        return new Section(n, name, withAddend ? SectionType.RELA : SectionType.REL, Section.SHF_INFO_LINK, 0,
                b.length, c.symtab(), target, 8, Relocations.entrySize(withAddend), b);
    }

    /** {@code .rel[a].text.<f>}: {@code f}'s code relocations with ({@code .rela}) or without addend. */
    static Section code(SectionContext c, FunctionFacts f, String n, int name) {
        boolean withAddend = n.startsWith(".rela.");
        List<Relocation> list = new ArrayList<>();
        for (CubinBuilder.CodeRelocation r : c.b().relocations) {
            if (r.function().equals(f.name()) && c.b().rela(r) == withAddend) {
                Integer sym = c.symbol(r.symbol());
                if (sym == null) {
                    throw new IllegalArgumentException("relocation against unknown symbol " + r.symbol());
                }
                list.add(new Relocation(r.offset(), sym, Relocation.typeCode(r.type()), r.addend()));
            }
        }
        // ptxas lists a function's code relocations from the last instruction to the first.
        list.sort(java.util.Comparator.comparingLong(Relocation::offset).reversed());
        return relocations(c, n, name, list, c.section(".text." + f.name()));
    }

    /** {@code .rel[a].nv.constant0.<f>}: R_CUDA_TEX_HEADER_INDEX of {@code f}'s texture slots, the last slot first. */
    static Section textureSlots(SectionContext c, FunctionFacts f, String n, int name) {
        List<Relocation> list = new ArrayList<>();
        int type = Relocation.typeCode("R_CUDA_TEX_HEADER_INDEX");
        for (CubinBuilder.TextureSlot s : c.b().textureSlots(f.name())) {
            Integer sym = c.symbol(s.reference());
            if (sym == null) {
                throw new IllegalArgumentException("texture slot of unknown reference " + s.reference());
            }
            list.add(0, new Relocation(s.offset(), sym, type, 0));
        }
        return relocations(c, n, name, list, c.section(".nv.constant0." + f.name()));
    }

    private static Section lineTable(SectionContext c, String n, int name) {
        String table = n.substring(n.indexOf(".", 1));
        List<Relocation> list = new ArrayList<>();
        for (DebugLine.Address a : c.debug().lineTable(table).addresses()) {
            list.add(new Relocation(a.offset(), c.symbol(a.function()), Relocation.typeCode("R_CUDA_64"), 0));
        }
        return relocations(c, n, name, list, c.section(table));
    }

    private static Section debugFrame(SectionContext c, String n, int name) {
        boolean withAddend = n.startsWith(".rela.");
        CubinBuilder b = c.b();
        // Below sm_90, -c splits them: R_CUDA_64 without addend (the locations, the first CIE pointer) in
        // .rel, the rest (address ranges, the other CIE pointers) in .rela.
        boolean split = b.relocatable && !b.flavor.hopperLayout();
        // ptxas lists them function by function from the last to the first: the FDEs' fields (from the last
        // FDE to the first, each from its last field to its first), then the addresses in the CIEs of the
        // functions placed inside it, also from the last to the first.
        List<Relocation> all = new ArrayList<>();
        int r64 = Relocation.typeCode("R_CUDA_64");
        List<DebugFrame.Fde> fdes = c.debug().frame.fdes();
        for (int k = b.functions.size() - 1; k >= 0; k--) {
            int fn = c.symbol(b.functions.get(k).name());
            for (int i = fdes.size() - 1; i >= 0; i--) {
                DebugFrame.Fde fde = fdes.get(i);
                if (fde.function() != k) {
                    continue;
                }
                if (b.relocatable) {
                    all.add(new Relocation(fde.fdeOffset() + DebugFrame.RANGE_FIELD, fn,
                            Relocation.typeCode("R_CUDA_UNUSED_CLEAR64"), 0));
                }
                // The location field holds the inner function's offset, which REL adds in place.
                all.add(new Relocation(fde.fdeOffset() + DebugFrame.LOCATION_FIELD, fn, r64,
                        withAddend ? fde.location() : 0));
                if (b.relocatable) {
                    all.add(new Relocation(fde.fdeOffset() + DebugFrame.CIE_POINTER_FIELD,
                            c.symbol(".debug_frame"), r64, fde.ciePointerAddend()));
                }
            }
            for (int i = fdes.size() - 1; i >= 0; i--) {
                DebugFrame.Fde fde = fdes.get(i);
                if (fde.function() == k && fde.cieAddressOffset() >= 0) {
                    all.add(new Relocation(fde.cieAddressOffset(), fn, r64, 0));
                }
            }
        }
        List<Relocation> list = new ArrayList<>();
        for (Relocation r : all) {
            boolean inRel = r.type() == r64 && r.addend() == 0;
            if (!split || inRel != withAddend) {
                list.add(r);
            }
        }
        return relocations(c, n, name, list, c.section(".debug_frame"));
    }

    private static Section addressTable(SectionContext c, String n, int name) {
        List<Relocation> list = new ArrayList<>();
        List<CubinBuilder.BankAddress> table = c.b().addressTable;
        for (int i = 0; i < table.size(); i++) {
            CubinBuilder.BankAddress a = table.get(i);
            Integer sym = c.symbol(a.symbol());
            if (sym == null) {
                throw new IllegalArgumentException("address of unknown symbol " + a.symbol());
            }
            list.add(new Relocation(8L * i, sym, Relocation.typeCode("R_CUDA_64"), a.addend()));
        }
        return relocations(c, n, name, list, c.section(".nv.constant4"));
    }
}
