package org.jptxas.cubin;

import org.jptxas.cubin.tables.CubinTables;

/**
 * One relocation of a {@code .rel.*} (no addend) or {@code .rela.*} section.
 *
 * @param offset byte offset in the target section ({@code sh_info} of the relocation section)
 * @param symbol symbol index
 * @param type   R_CUDA type code ({@code cubin/relocations.json})
 * @param addend the addend (0 for REL entries)
 */
public record Relocation(long offset, int symbol, int type, long addend) {
    /** {@code R_CUDA_...}, or the number for a type the table does not know. */
    public String typeName() {
        return CubinTables.relocation(type).map(CubinTables.RelocationType::name).orElse("R_CUDA_" + type);
    }

    /** R_CUDA type code of {@code name}, e.g. {@code R_CUDA_ABS47_34}. */
    public static int typeCode(String name) {
        return CubinTables.relocationCode(name);
    }
}
