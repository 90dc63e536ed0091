package org.jptxas.cubin;

/**
 * What the section writers of a {@link CubinBuilder} cubin share: the builder's facts, the section plan, the symbols
 * and the encoded debug tables.
 */
record SectionContext(CubinBuilder b, SectionPlan plan, SymbolPlan symbols, DebugSections debug) {
    int section(String name) {
        return plan.index().get(name);
    }

    int symtab() {
        return section(".symtab");
    }

    Integer symbol(String name) {
        return symbols.index.get(name);
    }
}
