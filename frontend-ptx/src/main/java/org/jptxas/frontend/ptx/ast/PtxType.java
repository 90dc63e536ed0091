package org.jptxas.frontend.ptx.ast;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The fundamental and opaque types a PTX variable can be declared with. */
public enum PtxType {
    B8(1), B16(2), B32(4), B64(8), B128(16),
    U8(1), U16(2), U32(4), U64(8),
    S8(1), S16(2), S32(4), S64(8),
    F16(2), F16X2(4), BF16(2), BF16X2(4), TF32(4), F32(4), F64(8),
    E4M3(1), E5M2(1), E4M3X2(2), E5M2X2(2), E2M1X2(1), E2M3X2(2), E3M2X2(2), UE8M0X2(2),
    PRED(0), TEXREF(8), SAMPLERREF(8), SURFREF(8);

    private static final Map<String, PtxType> BY_NAME = new HashMap<>();

    static {
        for (PtxType t : values()) {
            BY_NAME.put(t.ptxName(), t);
        }
    }

    private final int sizeBytes;

    PtxType(int sizeBytes) {
        this.sizeBytes = sizeBytes;
    }

    /** The size in bytes; 0 for predicates. */
    public int sizeBytes() {
        return sizeBytes;
    }

    /** The name without the dot, as PTX spells it ({@code f16x2}). */
    public String ptxName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether this is an opaque texture, sampler or surface reference type. */
    public boolean isOpaque() {
        return this == TEXREF || this == SAMPLERREF || this == SURFREF;
    }

    /** The type named {@code name} (without the dot). */
    public static Optional<PtxType> fromName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
