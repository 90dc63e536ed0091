package org.jptxas.tables.ptx;

import java.util.Locale;
import java.util.Optional;

/**
 * The PTX fundamental and instruction types, with the two facts type checking needs: the class (bit, signed,
 * unsigned, float, predicate) and the size in bits.
 */
public enum PtxType {
    PRED(TypeClass.PREDICATE, 1),
    B1(TypeClass.BIT, 1), B8(TypeClass.BIT, 8), B16(TypeClass.BIT, 16), B32(TypeClass.BIT, 32), B64(TypeClass.BIT, 64),
    B128(TypeClass.BIT, 128),
    S2(TypeClass.SIGNED, 2), S4(TypeClass.SIGNED, 4), S8(TypeClass.SIGNED, 8), S16(TypeClass.SIGNED, 16),
    S32(TypeClass.SIGNED, 32), S64(TypeClass.SIGNED, 64),
    U2(TypeClass.UNSIGNED, 2), U4(TypeClass.UNSIGNED, 4), U8(TypeClass.UNSIGNED, 8), U16(TypeClass.UNSIGNED, 16),
    U32(TypeClass.UNSIGNED, 32), U64(TypeClass.UNSIGNED, 64),
    S16X2(TypeClass.SIGNED, 32), U16X2(TypeClass.UNSIGNED, 32),
    S8X4(TypeClass.SIGNED, 32), U8X4(TypeClass.UNSIGNED, 32),
    S4X8(TypeClass.SIGNED, 32), U4X8(TypeClass.UNSIGNED, 32),
    F16(TypeClass.FLOAT, 16), F16X2(TypeClass.FLOAT, 32), BF16(TypeClass.FLOAT, 16), BF16X2(TypeClass.FLOAT, 32),
    F32(TypeClass.FLOAT, 32), F64(TypeClass.FLOAT, 64), F32X2(TypeClass.FLOAT, 64), TF32(TypeClass.FLOAT, 32),
    E4M3(TypeClass.FLOAT, 8), E5M2(TypeClass.FLOAT, 8), E4M3X2(TypeClass.FLOAT, 16), E5M2X2(TypeClass.FLOAT, 16),
    E4M3X4(TypeClass.FLOAT, 32), E5M2X4(TypeClass.FLOAT, 32),
    E2M3(TypeClass.FLOAT, 6), E3M2(TypeClass.FLOAT, 6), E2M1(TypeClass.FLOAT, 4),
    E2M3X2(TypeClass.FLOAT, 16), E3M2X2(TypeClass.FLOAT, 16), E2M1X2(TypeClass.FLOAT, 8), E2M1X4(TypeClass.FLOAT, 16),
    E2M3X4(TypeClass.FLOAT, 32), E3M2X4(TypeClass.FLOAT, 32),
    UE8M0(TypeClass.FLOAT, 8), UE8M0X2(TypeClass.FLOAT, 16), UE4M3(TypeClass.FLOAT, 8);

    /** The class of a type, which decides how relaxed operand type checking is. */
    public enum TypeClass { PREDICATE, BIT, SIGNED, UNSIGNED, FLOAT }

    private final TypeClass typeClass;
    private final int bits;
    private final String ptxName;

    PtxType(TypeClass typeClass, int bits) {
        this.typeClass = typeClass;
        this.bits = bits;
        this.ptxName = name().toLowerCase(Locale.ROOT);
    }

    public TypeClass typeClass() {
        return typeClass;
    }

    public int bits() {
        return bits;
    }

    /** The name as written in PTX, without the dot ({@code "f16x2"}). */
    public String ptxName() {
        return ptxName;
    }

    public boolean isInteger() {
        return typeClass == TypeClass.SIGNED || typeClass == TypeClass.UNSIGNED;
    }

    /** The type of the same class and twice the size ({@code s32} → {@code s64}), if there is one. */
    public Optional<PtxType> doubled() {
        for (PtxType t : values()) {
            if (t.typeClass == typeClass && t.bits == 2 * bits && t.ptxName.matches("[bsuf][0-9]+")) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The type spelled {@code name} (without the dot), if it is one. */
    public static Optional<PtxType> of(String name) {
        if (name == null || name.isEmpty() || !Character.isLetter(name.charAt(0))) {
            return Optional.empty();
        }
        try {
            PtxType t = valueOf(name.toUpperCase(Locale.ROOT));
            return t.ptxName.equals(name) ? Optional.of(t) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return ptxName;
    }
}
