package org.jptxas.scheduler.model;

/** How an instruction accesses memory. */
public enum MemKind {
    NONE, LOAD, STORE,
    /** Read-modify-write: atomics and reductions. */
    ATOMIC;

    public boolean writes() {
        return this == STORE || this == ATOMIC;
    }

    public boolean reads() {
        return this == LOAD || this == ATOMIC;
    }
}
