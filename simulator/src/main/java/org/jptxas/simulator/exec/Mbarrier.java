package org.jptxas.simulator.exec;

/**
 * The mbarrier word (64 bits in shared memory), as ptxas 13's {@code mbarrier.init} writes it, shared by the PTX
 * interpreter and the SASS emulator: bits 1..20 count arrivals up from {@code 2^20 - n} (the phase's pending
 * arrivals are {@code 2^20 - field}), bits 21..41 hold the pending transaction bytes (signed), bits 43..62 the reload
 * value {@code 2^20 - n}, bit 63 the phase. A phase completes (bit 63 flips, the counts reload) when no arrival and
 * no byte is pending.
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
        long count = word >>> 1 & FIELD;
        long pending = ((1L << 20) - count) & FIELD; // field 0: none pending (a count is at most 2^20 - 1)
        long tx = (word >>> 21 & TX) << 43 >> 43;
        long reload = word >>> 43 & FIELD;
        long phase = word >>> 63;
        if (arrivals > pending) {
            throw new IllegalStateException("mbarrier arrival of " + arrivals + " with " + pending
                    + " pending (undefined)");
        }
        pending -= arrivals;
        tx += bytes;
        if (pending == 0 && tx == 0) {
            phase ^= 1;
            pending = (1L << 20) - reload;
        }
        return (((1L << 20) - pending) & FIELD) << 1 | (tx & TX) << 21 | reload << 43 | phase << 63;
    }

    /** Whether the phase of parity {@code parity} (bit 0) has completed: the current phase differs from it. */
    public static boolean completed(long word, long parity) {
        return (word >>> 63) != (parity & 1);
    }
}
