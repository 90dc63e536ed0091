package org.jptxas.scheduler.model;

import java.util.List;
import java.util.Set;

/**
 * The scheduler's view of one machine instruction. Backends (Ori after instruction selection) and the SASS decoder
 * implement it through small adapters; the scheduler never looks at opcodes or encodings itself.
 */
public interface SchedInstr {
    /** The latency class name from the SM's latency table (see {@code LatencyModel#classify}). */
    String latencyClass();

    /** Registers written. */
    List<RegRange> defs();

    /** Registers read as data or address operands (not the guard). */
    List<RegRange> uses();

    /** The guard predicate ({@code @P0} / {@code @!UP1}), or {@code null} when unguarded. */
    RegRange guard();

    /**
     * The GPRs in operand slots A, B and C (index 0..2; {@code null} where the slot holds no GPR), for operand-reuse
     * flags.
     */
    default List<RegRange> reuseSlots() {
        return List.of();
    }

    default MemKind memKind() {
        return MemKind.NONE;
    }

    default MemSpace memSpace() {
        return MemSpace.NONE;
    }

    default Set<SchedFlag> flags() {
        return Set.of();
    }

    /**
     * Scoreboards this instruction itself waits for, besides its control word's wait mask (a {@code DEPBAR.LE});
     * {@link ScoreboardDrain#NONE} for everything else.
     */
    default ScoreboardDrain scoreboardDrain() {
        return ScoreboardDrain.NONE;
    }

    default boolean has(SchedFlag f) {
        return flags().contains(f);
    }
}
