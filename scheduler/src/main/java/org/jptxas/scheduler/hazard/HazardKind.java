package org.jptxas.scheduler.hazard;

/** What went wrong between two instructions. */
public enum HazardKind {
    /** A read issues before its fixed-latency producer's result is available. */
    RAW_STALL,
    /** A read of a variable-latency result without waiting on the producer's scoreboard (or it had none). */
    RAW_SCOREBOARD,
    /** A wait on a scoreboard issues before the scoreboard is set. */
    WAIT_TOO_EARLY,
    /** An overwrite of a register a late reader (store, atomic) may still read, without waiting on its read SB. */
    WAR,
    /** An overwrite of a register a variable-latency producer may still write, without waiting on its SB. */
    WAW,
    /** A scoreboard assigned while an earlier producer on it has not been waited for (the counter is shared). */
    SCOREBOARD_SHARED
}
