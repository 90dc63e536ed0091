package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A register operand: virtual (numbered per function and file, before register allocation) or physical.
 * {@code comps} consecutive 32-bit registers form a tuple (64-bit values are 2, vectors up to 4); predicates are 1.
 */
public record Reg(RegFile file, int index, int comps, boolean virtual) implements Operand {
    public static final Reg RZ = new Reg(RegFile.R, RegFile.R.count(), 1, false);
    public static final Reg URZ = new Reg(RegFile.UR, RegFile.UR.count(), 1, false);
    public static final Reg PT = new Reg(RegFile.P, RegFile.P.count(), 1, false);
    public static final Reg UPT = new Reg(RegFile.UP, RegFile.UP.count(), 1, false);

    public Reg {
        Objects.requireNonNull(file, "file");
        if (index < 0) {
            throw new IllegalArgumentException("negative register index " + index);
        }
        if (comps < 1 || comps > 4 || (file.isPredicate() && comps != 1)) {
            throw new IllegalArgumentException("bad tuple size " + comps + " for " + file);
        }
        if (!virtual && index + comps - 1 > file.count()) {
            throw new IllegalArgumentException(file.prefix() + index + " with " + comps + " components is out of range");
        }
    }

    public static Reg virt(RegFile file, int id, int comps) {
        return new Reg(file, id, comps, true);
    }

    public static Reg phys(RegFile file, int index, int comps) {
        return new Reg(file, index, comps, false);
    }

    /** RZ, URZ, PT or UPT. */
    public boolean isZero() {
        return !virtual && index == file.count();
    }

    /** One 32-bit component of a tuple. */
    public Reg component(int i) {
        if (i < 0 || i >= comps) {
            throw new IndexOutOfBoundsException(i);
        }
        return isZero() ? this : new Reg(file, index + (virtual ? 0 : i), 1, virtual);
    }

    @Override
    public String toString() {
        if (isZero()) {
            return file.zeroName();
        }
        String base = virtual ? "%" + file.prefix().toLowerCase() + index : file.prefix() + index;
        return comps == 1 ? base : base + "." + (32 * comps);
    }
}
