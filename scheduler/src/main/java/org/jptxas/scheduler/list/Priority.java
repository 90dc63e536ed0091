package org.jptxas.scheduler.list;

/**
 * The 8-bit packed priority of ptxas's list scheduler. Higher is better; the packed byte orders insertion, while
 * {@link ReadyList}'s comparison refines it stage by stage (pressure first, then the bits in the order 4, 6, 1, 2, 5,
 * then secondary keys).
 */
public final class Priority {
    /** Bit 7: the instruction sits at a yield boundary. */
    public static final int YIELD_RELATED = 1 << 7;
    /** Bit 6: the instruction carries the current yield state. */
    public static final int YIELD = 1 << 6;
    /** Bit 5: hot memory access (long-latency global/texture load) or, in DynBatch, a batched MMA. */
    public static final int HOT = 1 << 5;
    /** Bit 4: register-pressure relief needed. */
    public static final int PRESSURE = 1 << 4;
    /** Bit 3: belongs to the block being scheduled. */
    public static final int SAME_BB = 1 << 3;
    /** Bit 2: issues without a stall. */
    public static final int STALL_FREE = 1 << 2;
    /** Bit 1: on the critical path. */
    public static final int CRITICAL = 1 << 1;
    /** Bit 0: barrier target (waits on a scoreboard); retiring it early frees the scoreboard. */
    public static final int BARRIER_TARGET = 1;

    /** The order in which differing bits decide a comparison. */
    static final int[] DECISION_ORDER = {PRESSURE, YIELD, CRITICAL, STALL_FREE, HOT, YIELD_RELATED, BARRIER_TARGET};

    private Priority() {}

    public static int pack(boolean yieldRelated, boolean yield, boolean hot, boolean pressure, boolean sameBb,
                           boolean stallFree, boolean critical, boolean barrierTarget) {
        return (yieldRelated ? YIELD_RELATED : 0) | (yield ? YIELD : 0) | (hot ? HOT : 0) | (pressure ? PRESSURE : 0)
                | (sameBb ? SAME_BB : 0) | (stallFree ? STALL_FREE : 0) | (critical ? CRITICAL : 0)
                | (barrierTarget ? BARRIER_TARGET : 0);
    }

    /**
     * Compares two packed bytes by the multi-stage XOR scan: the first bit of {@link #DECISION_ORDER} in which they
     * differ decides; negative when {@code a} is better.
     */
    public static int compareBits(int a, int b) {
        return Integer.compare(RANK[b & 0xff], RANK[a & 0xff]);
    }

    /**
     * Per packed byte, its bits of {@link #DECISION_ORDER} gathered first to last from the top: comparing two ranks
     * finds the first bit of the order in which they differ (the ready list compares on every insertion).
     */
    private static final int[] RANK = new int[256];

    static {
        for (int p = 0; p < RANK.length; p++) {
            int rank = 0;
            for (int bit : DECISION_ORDER) {
                rank = rank << 1 | ((p & bit) != 0 ? 1 : 0);
            }
            RANK[p] = rank;
        }
    }
}
