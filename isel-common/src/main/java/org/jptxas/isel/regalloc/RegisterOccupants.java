package org.jptxas.isel.regalloc;

import java.util.Arrays;

/**
 * Every interval ever placed over one register unit, sorted by start, with the highest end per chunk of entries,
 * so that "does anything here overlap this interval" looks only at entries that start before the interval ends
 * and skips chunks that all end before it starts. A large kernel places hundreds of intervals per unit over its
 * life, and the second-chance search asks this for many units per interval; walking the whole list made that
 * quadratic. Stale entries (intervals moved away since) stay and are skipped by the caller's test, as before.
 */
final class RegisterOccupants {
    private static final int CHUNK = 32;

    private LiveInterval[] items = new LiveInterval[8];
    private int[] starts = new int[8];
    private int[] chunkMaxEnd = new int[1];
    private int size;

    void add(LiveInterval iv) {
        int start = iv.start();
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
            starts = Arrays.copyOf(starts, size * 2);
        }
        int at = size;
        if (size > 0 && starts[size - 1] > start) {
            at = firstStartingAtOrAfter(start + 1);
            System.arraycopy(items, at, items, at + 1, size - at);
            System.arraycopy(starts, at, starts, at + 1, size - at);
        }
        items[at] = iv;
        starts[at] = start;
        size++;
        int chunks = (size + CHUNK - 1) / CHUNK;
        if (chunks > chunkMaxEnd.length) {
            chunkMaxEnd = Arrays.copyOf(chunkMaxEnd, Math.max(chunks, chunkMaxEnd.length * 2));
        }
        if (at == size - 1) {
            int c = at / CHUNK;
            chunkMaxEnd[c] = at % CHUNK == 0 ? iv.end() : Math.max(chunkMaxEnd[c], iv.end());
        } else {
            for (int c = at / CHUNK; c < chunks; c++) {
                int max = Integer.MIN_VALUE;
                for (int i = c * CHUNK; i < Math.min(size, (c + 1) * CHUNK); i++) {
                    max = Math.max(max, items[i].end());
                }
                chunkMaxEnd[c] = max;
            }
        }
    }

    /** Index of the first entry whose start is at least {@code pos}. */
    private int firstStartingAtOrAfter(int pos) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] < pos) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Whether an entry other than {@code iv} that still sits over {@code unit} shares a position with {@code iv}
     * (entries starting at or after its end, or ending at or before its start, cannot).
     */
    boolean anyOverlapAt(LiveInterval iv, int unit) {
        int end = firstStartingAtOrAfter(iv.end());
        int start = iv.start();
        for (int c = (end - 1) / CHUNK; end > 0 && c >= 0; c--) {
            if (chunkMaxEnd[c] <= start) {
                continue;
            }
            for (int i = Math.min(end, (c + 1) * CHUNK) - 1; i >= c * CHUNK; i--) {
                LiveInterval o = items[i];
                if (o != iv && o.reg >= 0 && o.reg <= unit && unit < o.reg + o.comps && o.overlapsWhole(iv)) {
                    return true;
                }
            }
        }
        return false;
    }
}
