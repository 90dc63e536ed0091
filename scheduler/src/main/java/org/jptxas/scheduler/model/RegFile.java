package org.jptxas.scheduler.model;

/** The register files the scheduler tracks dependences on. */
public enum RegFile {
    /** General-purpose registers R0..R254; RZ (255) is never a dependence. */
    R(256, 255),
    /** Predicates P0..P6; PT (7) is never a dependence. */
    P(8, 7),
    /** Uniform registers UR0..UR62; URZ (63) is never a dependence. */
    UR(64, 63),
    /** Uniform predicates UP0..UP6; UPT (7) is never a dependence. */
    UP(8, 7),
    /** Convergence barrier registers B0..B15. */
    B(16, -1);

    private final int size;
    private final int zero;

    RegFile(int size, int zero) {
        this.size = size;
        this.zero = zero;
    }

    /** Number of register numbers, including the zero register. */
    public int size() {
        return size;
    }

    /** The always-zero / always-true register number, or -1. */
    public int zero() {
        return zero;
    }

    /** Key used in latency tables ({@code R}, {@code P}, {@code UR}, {@code UP}). */
    public String tableKey() {
        return name();
    }
}
