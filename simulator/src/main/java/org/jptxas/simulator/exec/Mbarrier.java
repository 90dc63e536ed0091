package org.jptxas.simulator.exec;

/**
 * The mbarrier word (64 bits in shared memory), as ptxas 13's {@code mbarrier.init} writes it, shared by the PTX
 * interpreter and the SASS emulator: bits 43..62 count the phase's arrivals up from {@code 2^20 - n} (the pending
 * arrivals are {@code 2^20 - field}: ptxas 13's {@code mbarrier.pending_count} reads them there from a state), bits
 * 21..41 hold the pending transaction bytes (signed), bits 1..20 the reload value {@code 2^20 - n} (the expected
 * count, which {@code arrive_drop} lowers), bit 63 the phase. A phase completes (bit 63 flips, the counts reload)
 * when no arrival and no byte is pending.
 */
public final class Mbarrier {
    private Mbarrier() {}

    private static final long FIELD = (1L << 20) - 1;
    private static final long TX = (1L << 21) - 1;

    /** The initial word of a barrier expecting {@code count} arrivals per phase. */
    public static long init(long count) {
        long v = ((1L << 20) - count) & FIELD;
        return v << 1 | v << 43;
    }

    /**
     * The word after {@code arrivals} arrivals and {@code bytes} more expected transaction bytes (negative: bytes
     * completed). More arrivals than pending is undefined: an {@link IllegalStateException} names it.
     */
    public static long arrive(long word, long arrivals, long bytes) {
        return arrive(word, arrivals, bytes, 0);
    }

    /**
     * {@code arrive_drop}: the expected count of this and every later phase is lowered by {@code arrivals}, then they
     * arrive.
     */
    public static long drop(long word, long arrivals) {
        return drop(word, arrivals, 0);
    }

    /** {@code arrive_drop.expect_tx}: {@code bytes} more expected transaction bytes, then {@link #drop}. */
    public static long drop(long word, long arrivals, long bytes) {
        return arrive(word, arrivals, bytes, arrivals);
    }

    /** The pending arrivals of the phase a state (the word an arrival returned) was taken in. */
    public static long pendingCount(long state) {
        return ((1L << 20) - (state >>> 43 & FIELD)) & FIELD;
    }

    private static long arrive(long word, long arrivals, long bytes, long dropped) {
        long count = word >>> 43 & FIELD;
        long pending = ((1L << 20) - count) & FIELD; // field 0: none pending (a count is at most 2^20 - 1)
        long tx = (word >>> 21 & TX) << 43 >> 43;
        long reload = word >>> 1 & FIELD;
        long phase = word >>> 63;
        if (arrivals > pending) {
            throw new IllegalStateException("mbarrier arrival of " + arrivals + " with " + pending
                    + " pending (undefined)");
        }
        if (dropped > (1L << 20) - reload) {
            throw new IllegalStateException("mbarrier arrive_drop of " + dropped + " with an expected count of "
                    + ((1L << 20) - reload) + " (undefined)");
        }
        reload += dropped;
        pending -= arrivals;
        tx += bytes;
        if (pending == 0 && tx == 0) {
            phase ^= 1;
            pending = (1L << 20) - reload;
        }
        return (((1L << 20) - pending) & FIELD) << 43 | (tx & TX) << 21 | reload << 1 | phase << 63;
    }

    /** Whether the phase of parity {@code parity} (bit 0) has completed: the current phase differs from it. */
    public static boolean completed(long word, long parity) {
        return (word >>> 63) != (parity & 1);
    }
}
