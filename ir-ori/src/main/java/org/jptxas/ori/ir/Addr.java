package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A memory address operand {@code [base+offset]} of loads, stores and atomics. A two-component {@code base} is a
 * 64-bit address ({@code [R2.64+0x10]}: global and generic spaces); one component is a 32-bit window address
 * (shared, local); {@link Reg#RZ} or {@link Reg#URZ} as base gives an absolute address ({@code [0x10]}).
 * {@code uniformBase}, when not null, is a uniform register added to the address ({@code [R2.64+UR4+0x10]}).
 */
public record Addr(Reg base, Reg uniformBase, long offset) implements Operand {
    public Addr {
        Objects.requireNonNull(base, "base");
        if (base.file().isPredicate()) {
            throw new IllegalArgumentException("address base must be a general register: " + base);
        }
        if (uniformBase != null && uniformBase.file() != RegFile.UR) {
            throw new IllegalArgumentException("uniform address base must be a UR: " + uniformBase);
        }
    }

    public static Addr of(Reg base, long offset) {
        return new Addr(base, null, offset);
    }

    /** Whether the address is 64 bits wide ({@code .64} in SASS). */
    public boolean wide() {
        // A part of a 64-bit tuple ([%r7.lo]) is a 32-bit base.
        return base.width() == 2;
    }

    public Addr withBase(Reg newBase) {
        return new Addr(newBase, uniformBase, offset);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        String sep = "";
        if (!base.isZero() || (uniformBase == null && offset == 0)) {
            sb.append(base);
            sep = "+";
        }
        if (uniformBase != null) {
            sb.append(sep).append(uniformBase);
            sep = "+";
        }
        if (offset != 0 || sep.isEmpty()) {
            sb.append(sep).append(offset < 0 ? "-0x" + Long.toHexString(-offset) : "0x" + Long.toHexString(offset));
        }
        return sb.append(']').toString();
    }
}
