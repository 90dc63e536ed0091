package org.jptxas.scheduler.model;

/** Properties that constrain where an instruction may move and how its control word is formed. */
public enum SchedFlag {
    /** Thread-block or warp barrier (BAR, WARPSYNC): orders every memory access and every side effect. */
    BARRIER,
    /** Memory fence (MEMBAR, ERRBAR, DEPBAR): orders every memory access. */
    FENCE,
    /** Call or return: a full scheduling barrier. */
    CALL,
    /** Branch or jump: ends a block, stays last. */
    BRANCH,
    /** EXIT or KILL. */
    EXIT,
    /** Convergence control (BSSY, BSYNC, BREAK): keeps its place relative to other control instructions. */
    CONTROL,
    /** A padding NOP. */
    NOP,
    /** The guard predicate is negated ({@code @!P0}). */
    NEGATED_GUARD,
    /**
     * Closes a group of asynchronous copies (LDGDEPBAR): it sets the copy-group scoreboard, SB0, which
     * {@code DEPBAR.LE SB0, n} counts down; in code with such groups no other instruction may use SB0.
     */
    COPY_GROUP
}
