package org.jptxas.scheduler.model;

import java.util.Objects;

/** {@code count} consecutive registers of one file starting at {@code first}, e.g. {@code R4.64} = (R, 4, 2). */
public record RegRange(RegFile file, int first, int count) {
    public RegRange {
        Objects.requireNonNull(file, "file");
        if (count < 1 || first < 0 || first + count > file.size()) {
            throw new IllegalArgumentException("bad register range " + file + first + " x" + count);
        }
    }

    public static RegRange of(RegFile file, int reg) {
        return new RegRange(file, reg, 1);
    }

    /** True when this range is (or starts at) the file's zero register, so it creates no dependence. */
    public boolean isZero() {
        return first == file.zero();
    }

    public boolean overlaps(RegRange o) {
        return file == o.file && first < o.first + o.count && o.first < first + count;
    }

    // Written out for speed, as Ori's Reg's are (the hash is the generated one's).
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof RegRange r && first == r.first && count == r.count && file == r.file;
    }

    @Override
    public int hashCode() {
        return (file.hashCode() * 31 + first) * 31 + count;
    }

    @Override
    public String toString() {
        String prefix = file == RegFile.R ? "R" : file == RegFile.UR ? "UR" : file == RegFile.P ? "P" : file == RegFile.UP ? "UP" : "B";
        return prefix + first + (count > 1 ? "x" + count : "");
    }
}
