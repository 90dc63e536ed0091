package org.jptxas.tables.ptx;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One instruction-type position of a form ({@code add.f32} has one, {@code cvt.f32.s32} two, {@code mma} four),
 * named by a capital letter that operand specs refer to.
 */
public record TypeSlot(char name, Set<PtxType> types) {
    public TypeSlot {
        Objects.requireNonNull(types, "types");
        if (types.isEmpty()) {
            throw new IllegalArgumentException("type slot " + name + " allows no type");
        }
        types = Set.copyOf(EnumSet.copyOf(types));
    }
}
