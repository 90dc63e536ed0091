package org.jptxas.simulator.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.simulator.memory.Region;

/**
 * One thread's asynchronous copies global → shared ({@code cp.async} / {@code LDGSTS}), shared by the PTX interpreter
 * and the SASS emulator. The memory model: a copy reads its source when it is issued and lands in shared memory only
 * when a wait retires its group ({@code cp.async.wait_group N} / {@code DEPBAR.LE SB0, N}: every committed group
 * but the N newest; {@code wait_all} all). Until then its destination holds {@link #POISON} bytes, so code that reads
 * the data without waiting (or without a barrier after another thread's wait) computes with garbage instead of
 * passing by luck; a copy whose group is never waited for never lands.
 */
public final class AsyncCopies {
    /** What a destination holds while its copy is in flight (as f32 words a NaN; as integers -1 in every width). */
    public static final byte POISON = (byte) 0xff;

    private record Copy(Region shared, long address, byte[] data) {}

    private List<Copy> open = new ArrayList<>();
    private final ArrayDeque<List<Copy>> committed = new ArrayDeque<>();

    /**
     * Issues a copy of {@code size} bytes to {@code sharedAddress} whose first {@code valid} bytes are {@code source}
     * (the rest zero): the destination is poisoned until the copy's group is waited for.
     */
    public void issue(Region shared, long sharedAddress, byte[] source, int size) {
        byte[] data = Arrays.copyOf(source, size);
        for (int i = 0; i < size; i++) {
            shared.store8(sharedAddress + i, POISON);
        }
        open.add(new Copy(shared, sharedAddress, data));
    }

    /** {@code cp.async.commit_group} / {@code LDGDEPBAR}: the copies issued since the last commit form a group. */
    public void commit() {
        committed.addLast(open);
        open = new ArrayList<>();
    }

    /** {@code cp.async.wait_group pending} / {@code DEPBAR.LE SB0, pending}: all but the newest groups land. */
    public void waitFor(int pending) {
        while (committed.size() > pending) {
            for (Copy c : committed.removeFirst()) {
                for (int i = 0; i < c.data.length; i++) {
                    c.shared.store8(c.address + i, c.data[i]);
                }
            }
        }
    }

    /**
     * {@code cp.async.mbarrier.arrive} / {@code ARRIVES.LDGSTSBAR}: every copy this thread issued and no wait has
     * landed yet now completes on an mbarrier instead ({@code bulk}, under {@code barrier}); its groups stay, empty,
     * so later waits count them as before. {@code arrivals} and {@code bytes} are the update the completion makes
     * on the barrier word (one arrival, or one transaction).
     */
    public void moveTo(BulkCopies bulk, long barrier, long arrivals, long bytes) {
        List<BulkCopies.Piece> pieces = new ArrayList<>();
        for (List<Copy> group : committed) {
            group.forEach(c -> pieces.add(new BulkCopies.Piece(c.address, c.data)));
            group.clear();
        }
        open.forEach(c -> pieces.add(new BulkCopies.Piece(c.address, c.data)));
        open.clear();
        bulk.issueTracked(barrier, pieces, arrivals, bytes);
    }

    /** Groups committed and not yet waited for (a test's view). */
    public int pendingGroups() {
        return committed.size();
    }
}
