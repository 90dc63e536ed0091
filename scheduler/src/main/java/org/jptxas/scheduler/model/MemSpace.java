package org.jptxas.scheduler.model;

/** The state space a memory instruction touches; {@code GENERIC} may alias global, shared and local. */
public enum MemSpace {
    NONE, GLOBAL, SHARED, LOCAL, CONST, GENERIC, TEXTURE, SURFACE;

    /** Whether accesses to the two spaces may touch the same memory (no alias analysis beyond the space). */
    public boolean mayAlias(MemSpace o) {
        if (this == NONE || o == NONE || this == CONST || o == CONST) {
            return false;
        }
        if (this == o || this == GENERIC || o == GENERIC) {
            return true;
        }
        return inGlobal() && o.inGlobal();
    }

    private boolean inGlobal() {
        return this == GLOBAL || this == TEXTURE || this == SURFACE;
    }
}
