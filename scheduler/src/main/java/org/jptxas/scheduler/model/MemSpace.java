package org.jptxas.scheduler.model;

/**
 * The state space a memory instruction touches; {@code GENERIC} may alias global, shared and local. {@code TEXTURE}
 * is read-only while a kernel runs: the texture cache is not kept coherent with the kernel's own global or surface
 * writes (PTX leaves such a read undefined), so texture reads are ordered only by fences, as ptxas moves them.
 */
public enum MemSpace {
    NONE, GLOBAL, SHARED, LOCAL, CONST, GENERIC, TEXTURE, SURFACE;

    /** Whether accesses to the two spaces may touch the same memory (no alias analysis beyond the space). */
    public boolean mayAlias(MemSpace o) {
        if (this == NONE || o == NONE || this == CONST || o == CONST || this == TEXTURE || o == TEXTURE) {
            return false;
        }
        if (this == o || this == GENERIC || o == GENERIC) {
            return true;
        }
        return inGlobal() && o.inGlobal();
    }

    private boolean inGlobal() {
        return this == GLOBAL || this == SURFACE;
    }
}
