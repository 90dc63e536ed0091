package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A register operand: virtual (numbered per function and file, before register allocation) or physical.
 * {@code comps} consecutive 32-bit registers form a tuple (64-bit values are 2, vectors up to 4, the uniform operand blocks of tensor copies up to 8, the A operand of
 * sm_90's f64 m16n8k16 multiply 16); predicates are 1.
 *
 * <p>{@code part} selects one 32-bit component of a virtual tuple ({@code %r5.lo} is part 0 of the 64-bit
 * {@code %r5}, {@code %r5.hi} part 1): {@code comps} stays the size of the whole tuple, so every reference to a
 * virtual register agrees on its size, and the operand is 32 bits wide. {@code part} is {@link #WHOLE} (-1) for the
 * whole register. After allocation a part of {@code %rN} (allocated at {@code Rb}) is the physical {@code R(b+part)};
 * physical registers never carry a part ({@link #component} gives the physical register directly).
 */
public record Reg(RegFile file, int index, int comps, boolean virtual, int part) implements Operand {
    /** {@link #part} of a reference to the whole register. */
    public static final int WHOLE = -1;

    public static final Reg RZ = new Reg(RegFile.R, RegFile.R.count(), 1, false);
    public static final Reg URZ = new Reg(RegFile.UR, RegFile.UR.count(), 1, false);
    public static final Reg PT = new Reg(RegFile.P, RegFile.P.count(), 1, false);
    public static final Reg UPT = new Reg(RegFile.UP, RegFile.UP.count(), 1, false);
    /** The most components a tuple has. */
    public static final int MAX_COMPS = 16;

    public Reg {
        Objects.requireNonNull(file, "file");
        if (index < 0) {
            throw new IllegalArgumentException("negative register index " + index);
        }
        if (comps < 1 || comps > MAX_COMPS || (file.isPredicate() && comps != 1)) {
            throw new IllegalArgumentException("bad tuple size " + comps + " for " + file);
        }
        if (!virtual && index + comps - 1 > file.count()) {
            throw new IllegalArgumentException(file.prefix() + index + " with " + comps + " components is out of range");
        }
        if (part != WHOLE && (!virtual || part < 0 || part >= comps || comps == 1)) {
            throw new IllegalArgumentException("bad part " + part + " of " + file.prefix() + index + " (" + comps
                    + " components, " + (virtual ? "virtual" : "physical") + ")");
        }
    }

    /** A reference to a whole register. */
    public Reg(RegFile file, int index, int comps, boolean virtual) {
        this(file, index, comps, virtual, WHOLE);
    }

    public static Reg virt(RegFile file, int id, int comps) {
        return new Reg(file, id, comps, true);
    }

    public static Reg phys(RegFile file, int index, int comps) {
        return new Reg(file, index, comps, false);
    }

    // Written out: every pass keys maps and sets by registers, and the generated record methods go through method
    // handles the compile server's C1-compiled code does not inline. The hash is the generated one's (31 * h + part).
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Reg r && index == r.index && file == r.file && comps == r.comps
                && virtual == r.virtual && part == r.part;
    }

    @Override
    public int hashCode() {
        return (((file.hashCode() * 31 + index) * 31 + comps) * 31 + Boolean.hashCode(virtual)) * 31 + part;
    }

    /**
     * Whether {@code other} names the same register: same file, both virtual or both physical, same number, whatever
     * the tuple size or part each reference takes of it.
     */
    public boolean sameRegister(Reg other) {
        return index == other.index && file == other.file && virtual == other.virtual;
    }

    /** RZ, URZ, PT or UPT. */
    public boolean isZero() {
        return !virtual && index == file.count();
    }

    /** True for a reference to one 32-bit component of a virtual tuple. */
    public boolean isPart() {
        return part != WHOLE;
    }

    /** The number of 32-bit registers this operand reads or writes: 1 for a part, else {@code comps}. */
    public int width() {
        return part == WHOLE ? comps : 1;
    }

    /** The whole register a part belongs to (this register when it is whole). */
    public Reg whole() {
        return part == WHOLE ? this : new Reg(file, index, comps, virtual);
    }

    /**
     * One 32-bit component of a tuple: for a physical tuple the physical register {@code index + i}, for a virtual
     * tuple a {@linkplain #isPart() part}; a one-component register is its own component 0.
     */
    public Reg component(int i) {
        if (i < 0 || i >= width()) {
            throw new IndexOutOfBoundsException(i);
        }
        if (isZero() || (comps == 1)) {
            return this;
        }
        if (virtual) {
            return part == WHOLE ? new Reg(file, index, comps, true, i) : this;
        }
        return new Reg(file, index + i, 1, false);
    }

    @Override
    public String toString() {
        if (isZero()) {
            return file.zeroName();
        }
        String base = virtual ? "%" + file.prefix().toLowerCase() + index : file.prefix() + index;
        if (part != WHOLE) {
            return base + (comps == 2 ? (part == 0 ? ".lo" : ".hi") : "." + part);
        }
        return comps == 1 ? base : base + "." + (32 * comps);
    }
}
