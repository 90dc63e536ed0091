package org.jptxas.ori.ir;

/**
 * The register files of the Volta-family machine. {@code count} is the number of allocatable registers; the zero
 * (or true) register sits just past them: RZ = R255, URZ = UR63, PT = P7, UPT = UP7.
 */
public enum RegFile {
    /** 32-bit per-thread general registers. */
    R("R", 255, false),
    /** 32-bit warp-uniform registers (sm_75+). */
    UR("UR", 63, false),
    /** Per-thread predicates. */
    P("P", 7, true),
    /** Warp-uniform predicates (sm_75+). */
    UP("UP", 7, true);

    private final String prefix;
    private final int count;
    private final boolean predicate;

    RegFile(String prefix, int count, boolean predicate) {
        this.prefix = prefix;
        this.count = count;
        this.predicate = predicate;
    }

    /** Assembly prefix: {@code R}, {@code UR}, {@code P}, {@code UP}. */
    public String prefix() {
        return prefix;
    }

    /** Allocatable registers; also the index of the zero/true register. */
    public int count() {
        return count;
    }

    public boolean isPredicate() {
        return predicate;
    }

    public boolean isUniform() {
        return this == UR || this == UP;
    }

    /** Name of the constant register: RZ, URZ, PT, UPT. */
    public String zeroName() {
        return predicate ? prefix + "T" : prefix + "Z";
    }
}
