package org.jptxas.simulator.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.simulator.memory.Region;

/**
 * Bulk copies global -> shared in flight on their mbarriers, for one block (PTX interpreter and SASS emulator): the
 * source is read when the copy is issued; the bytes land in shared memory only when a thread checks the barrier's
 * phase ({@code mbarrier.test_wait}/{@code try_wait}, {@code SYNCS.PHASECHK}), and complete their transaction there.
 * A kernel that reads the destination without waiting on the barrier reads what was there before.
 */
public final class BulkCopies {
    /** Bytes that land at a shared address. */
    public record Piece(long shared, byte[] data) {}

    /** Pieces that land together, then update the barrier word by {@code arrivals} and {@code bytes}. */
    private record Landing(List<Piece> pieces, long arrivals, long bytes) {}

    private final Map<Long, List<Landing>> inFlight = new LinkedHashMap<>();

    /** A bulk copy: its bytes complete as many transaction bytes. */
    public void issue(long barrier, long shared, byte[] data) {
        issueTracked(barrier, List.of(new Piece(shared, data)), 0, -(long) data.length);
    }

    /**
     * Copies tracked by an mbarrier ({@code cp.async.mbarrier.arrive}): they land when the barrier's phase is checked,
     * then the barrier word takes {@code arrivals} arrivals and {@code bytes} transaction bytes.
     */
    public void issueTracked(long barrier, List<Piece> pieces, long arrivals, long bytes) {
        inFlight.computeIfAbsent(barrier, k -> new ArrayList<>()).add(new Landing(List.copyOf(pieces), arrivals, bytes));
    }

    /** A barrier re-initialized or invalidated: its copies are forgotten. */
    public void drop(long barrier) {
        inFlight.remove(barrier);
    }

    /** The copies on {@code barrier} land in {@code shared} and complete their bytes on the barrier's word. */
    public void land(long barrier, Region shared) {
        List<Landing> copies = inFlight.remove(barrier);
        if (copies == null) {
            return;
        }
        for (Landing c : copies) {
            for (Piece p : c.pieces) {
                for (int i = 0; i < p.data.length; i++) {
                    shared.store8(p.shared + i, p.data[i]);
                }
            }
            shared.store64(barrier, Mbarrier.arrive(shared.load64(barrier), c.arrivals, c.bytes));
        }
    }
}
