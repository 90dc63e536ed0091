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
    private record Landing(long shared, byte[] data) {}

    private final Map<Long, List<Landing>> inFlight = new LinkedHashMap<>();

    public void issue(long barrier, long shared, byte[] data) {
        inFlight.computeIfAbsent(barrier, k -> new ArrayList<>()).add(new Landing(shared, data));
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
            for (int i = 0; i < c.data.length; i++) {
                shared.store8(c.shared + i, c.data[i]);
            }
            shared.store64(barrier, Mbarrier.arrive(shared.load64(barrier), 0, -(long) c.data.length));
        }
    }
}
