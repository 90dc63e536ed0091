package org.jptxas.scheduler.latency;

/**
 * What the scheduler needs to know of a pipe beyond its issue interval, named by the pipe's name in the latency table:
 * memory pipes make variable producers long ("hot"), the constant-load pipe is not a special-register read, the
 * tensor-core pipe is what DynBatch mode favours, and the no-pipe class (NOP) needs no issue slot. Any other pipe is
 * {@link #GENERAL}, so a backend may name further pipes of its own.
 */
public enum PipeRole {
    LOAD_STORE("lsu"),
    TEXTURE("tex"),
    CONSTANT_LOAD("ldc"),
    MATRIX("mma"),
    NONE("none"),
    GENERAL(null);

    private final String tableName;

    PipeRole(String tableName) {
        this.tableName = tableName;
    }

    /** The role of the pipe the latency table calls {@code name}. */
    public static PipeRole of(String name) {
        for (PipeRole r : values()) {
            if (name.equals(r.tableName)) {
                return r;
            }
        }
        return GENERAL;
    }

    /** Whether variable producers on this pipe are memory accesses (the seed's long-latency "hot" kind). */
    public boolean memory() {
        return this == LOAD_STORE || this == TEXTURE;
    }
}
