package org.jptxas.scheduler.dag;

/** Why one instruction must follow another. */
public enum DepKind {
    /** True dependence: the consumer reads what the producer wrote. */
    RAW,
    /** Anti dependence: the writer must not clobber a value an earlier reader still needs. */
    WAR,
    /** Output dependence: two writes of one register keep their order. */
    WAW,
    /** Memory ordering within a state space (no alias analysis). */
    MEMORY,
    /** Barriers, fences, calls, branches and other control: a full ordering point. */
    ORDER
}
