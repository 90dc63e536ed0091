package org.jptxas.simulator.launch;

import java.util.Locale;
import java.util.Optional;

/** The scalar parameter types of a launch spec, with their size in bytes (which is also their alignment). */
public enum ScalarType {
    U8(1, false, false), U16(2, false, false), U32(4, false, false), U64(8, false, false),
    S8(1, true, false), S16(2, true, false), S32(4, true, false), S64(8, true, false),
    F16(2, true, true), BF16(2, true, true), F32(4, true, true), F64(8, true, true);

    private final int size;
    private final boolean signed;
    private final boolean floating;

    ScalarType(int size, boolean signed, boolean floating) {
        this.size = size;
        this.signed = signed;
        this.floating = floating;
    }

    public int size() {
        return size;
    }

    public boolean floating() {
        return floating;
    }

    public boolean signed() {
        return signed;
    }

    /** The spec name, e.g. {@code u32}. */
    public String specName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ScalarType> bySpecName(String name) {
        for (ScalarType t : values()) {
            if (t.specName().equals(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
