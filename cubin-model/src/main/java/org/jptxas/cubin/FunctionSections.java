package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.FunctionInfo;
import org.jptxas.cubin.info.NvInfo;

/**
 * The sections of one function of a {@link CubinBuilder} cubin: its code, {@code .nv.info.<function>}, its shared
 * memory, its constant banks 0 (the parameters) and 2 (jump tables) and its code relocations.
 */
final class FunctionSections {
    private FunctionSections() {}

    /** Section {@code n}, which belongs to the function whose name ends it. */
    static Section section(SectionContext c, String n, int name) {
        CubinBuilder b = c.b();
        FunctionFacts f = b.functions.stream().filter(x -> n.endsWith("." + x.name())).findFirst().orElseThrow();
        int text = c.section(".text." + f.name());
        if (n.startsWith(".rel.text.") || n.startsWith(".rela.text.")) {
            return RelocationSections.code(c, f, n, name);
        }
        if (n.startsWith(".rel.nv.constant0.") || n.startsWith(".rela.nv.constant0.")) {
            return RelocationSections.textureSlots(c, f, n, name);
        }
        if (n.startsWith(".rela.nv.constant2.")) {
            return new Section(n, name, SectionType.RELA, Section.SHF_INFO_LINK, 0, 0, c.symtab(),
                    c.section(".nv.constant2." + f.name()), 8, Relocations.entrySize(true), new byte[0]);
        }
        if (n.startsWith(".nv.constant2.")) {
            byte[] d = b.constantBank2.get(f.name()).clone();
            return new Section(n, name, SectionType.PROGBITS, Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, d.length, 0,
                    text, 4, 0, d);
        }
        if (n.startsWith(".nv.info.")) {
            byte[] d = NvInfo.encode(FunctionInfo.records(b.sm, withBindlessBanks(b, withCallRecords(c, f)), b.paramBase(),
                    c.symbols().index.getOrDefault(".nv.constant0." + f.name(), 0),
                    b.apiVersion(), b.v7()));
            return new Section(n, name, SectionType.CUDA_INFO, Section.SHF_INFO_LINK, 0, d.length, c.symtab(), text, 4, 0, d);
        }
        if (n.startsWith(".text.")) {
            int info = c.symbol(f.name()) | (!b.flavor.hopperLayout() || b.v7() ? f.registers() << 24 : 0);
            long barriers = b.v7() ? (long) f.barriers() << 20 : 0;
            byte[] d = f.code();
            return new Section(n, name, SectionType.PROGBITS, Section.SHF_ALLOC | Section.SHF_EXECINSTR | barriers, 0,
                    d.length, c.symtab(), info, 128, 0, d);
        }
        if (n.startsWith(".nv.shared.")) {
            return new Section(n, name, b.relocatable ? SectionType.CUDA_SHARED : SectionType.NOBITS,
                    Section.SHF_WRITE | Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, f.sharedBytes(), 0, text,
                    b.sharedAlignment.getOrDefault(f.name(), 4), 0, null);
        }
        List<CubinBuilder.TextureSlot> slots = b.textureSlots(f.name());
        byte[] d = new byte[slots.isEmpty() ? b.paramBase() + f.paramBytes() : slots.get(slots.size() - 1).offset() + 4];
        return new Section(n, name, b.relocatable ? SectionType.CUDA_CONSTANT_B0 : SectionType.PROGBITS,
                Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, d.length, 0, text, 4, 0, d);
    }

    /**
     * {@code f} with BINDLESS_TEXTURE_BANK (0) when it has texture header slots, and BINDLESS_SURFACE_BANK (0) too
     * where the SM's record order has it (sm_90 on), as ptxas writes them for a kernel that reads a bound texture.
     */
    private static FunctionFacts withBindlessBanks(CubinBuilder b, FunctionFacts f) {
        if (b.textureSlots(f.name()).isEmpty()
                || f.extraAttributes().stream().anyMatch(a -> a.code() == BINDLESS_TEXTURE_BANK)) {
            return f;
        }
        List<Attribute> extra = new ArrayList<>(f.extraAttributes());
        extra.add(new Attribute.Inline(BINDLESS_TEXTURE_BANK, org.jptxas.cubin.info.EiFormat.BVAL, 0));
        if (org.jptxas.cubin.tables.CubinTables.nvInfoRules(b.sm).rank(BINDLESS_SURFACE_BANK) != Integer.MAX_VALUE) {
            extra.add(new Attribute.Inline(BINDLESS_SURFACE_BANK, org.jptxas.cubin.info.EiFormat.BVAL, 0));
        }
        return new FunctionFacts(f.name(), f.entry(), f.code(), f.registers(), f.frameSize(), f.minStackSize(),
                f.maxStackSize(), f.sharedBytes(), f.params(), f.paramBytes(), f.barriers(), f.exitOffsets(),
                f.crsStackSize(), f.maxRegCount(), extra, f.callees(), f.inner());
    }

    static final int BINDLESS_TEXTURE_BANK = 0x15;
    static final int BINDLESS_SURFACE_BANK = 0x16;

    /** {@code f} with the EXTERNS record of its calls: the undefined functions it calls, by symbol index. */
    private static FunctionFacts withCallRecords(SectionContext c, FunctionFacts f) {
        java.util.TreeSet<Integer> externs = new java.util.TreeSet<>();
        for (CubinBuilder.CodeRelocation r : c.b().relocations) {
            if (r.function().equals(f.name()) && CubinBuilder.isCall(r)) {
                Integer sym = c.symbol(r.symbol());
                if (sym != null && c.symbols().symbols.get(sym).shndx() == 0) {
                    externs.add(sym);
                }
            }
        }
        if (externs.isEmpty() || f.extraAttributes().stream().anyMatch(a -> a.code() == CubinBuilder.EXTERNS)) {
            return f; // none, or given with the facts (read back from a cubin)
        }
        List<Attribute> extra = new ArrayList<>(f.extraAttributes());
        extra.add(new Attribute.Words(CubinBuilder.EXTERNS, externs.stream().mapToInt(Integer::intValue).toArray()));
        return new FunctionFacts(f.name(), f.entry(), f.code(), f.registers(), f.frameSize(), f.minStackSize(),
                f.maxStackSize(), f.sharedBytes(), f.params(), f.paramBytes(), f.barriers(), f.exitOffsets(),
                f.crsStackSize(), f.maxRegCount(), extra, f.callees(), f.inner());
    }
}
