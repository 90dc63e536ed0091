package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.FunctionInfo;
import org.jptxas.cubin.info.NvInfo;

/**
 * The sections of one function of a {@link CubinBuilder} cubin: its code, {@code .nv.info.<function>}, its shared
 * memory, its constant bank 0 (the parameters) and its code relocations.
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
        if (n.startsWith(".nv.info.")) {
            byte[] d = NvInfo.encode(FunctionInfo.records(b.sm, withCallRecords(c, f), b.paramBase(),
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
        byte[] d = new byte[b.paramBase() + f.paramBytes()];
        return new Section(n, name, b.relocatable ? SectionType.CUDA_CONSTANT_B0 : SectionType.PROGBITS,
                Section.SHF_ALLOC | Section.SHF_INFO_LINK, 0, d.length, 0, text, 4, 0, d);
    }

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
