package org.jptxas.isel.regalloc;

import java.util.Arrays;
import org.jptxas.ori.ir.RegFile;

/**
 * Where one virtual register is live, as sorted disjoint half-open position ranges (instruction {@code i} reads at
 * {@code 2i} and writes at {@code 2i+1}), with the holes between them free for other values.
 */
final class LiveInterval {
    final int key;
    final RegFile file;
    final int comps;
    /** Precoloured register or -1. */
    final int fixed;
    double weight;
    boolean spillable = true;
    /** The single definition, when it can be re-executed before each use instead of spilling; else null. */
    org.jptxas.ori.ir.Instr rematDef;
    int defs;
    /** The highest register any component may take (a region's register count; {@link RegisterRegions}). */
    int highest = Integer.MAX_VALUE;
    /** Assigned register (first component), or -1. */
    int reg = -1;
    /** Index of the first range that may still matter for the scan position. */
    int cursor;

    // Built backwards: ranges are appended in decreasing position order, then reversed by finish().
    private int[] from = new int[2];
    private int[] to = new int[2];
    private int count;

    LiveInterval(int key, RegFile file, int comps, int fixed) {
        this.key = key;
        this.file = file;
        this.comps = comps;
        this.fixed = fixed;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Adds [f, t) while building backwards; merges with the lowest range when they touch. */
    void addRange(int f, int t) {
        if (count > 0 && t >= from[count - 1]) {
            from[count - 1] = Math.min(from[count - 1], f);
            to[count - 1] = Math.max(to[count - 1], t);
            // The widened range may now reach ranges added before it.
            while (count > 1 && to[count - 1] >= from[count - 2]) {
                from[count - 2] = Math.min(from[count - 2], from[count - 1]);
                to[count - 2] = Math.max(to[count - 2], to[count - 1]);
                count--;
            }
            return;
        }
        if (count == from.length) {
            from = Arrays.copyOf(from, count * 2);
            to = Arrays.copyOf(to, count * 2);
        }
        from[count] = f;
        to[count] = t;
        count++;
    }

    /** A definition at {@code pos}: the lowest range starts there (building backwards). */
    void setFrom(int pos) {
        if (count == 0) {
            addRange(pos, pos + 1);
        } else {
            from[count - 1] = pos;
        }
    }

    /** Removes the part of the lowest ranges below {@code cut} that lies at or after {@code floor} (building). */
    void cutBelow(int floor, int cut) {
        while (count > 0 && from[count - 1] >= floor && from[count - 1] < cut) {
            if (to[count - 1] <= cut) {
                count--;
            } else {
                from[count - 1] = cut;
            }
        }
    }

    void finish() {
        for (int i = 0, j = count - 1; i < j; i++, j--) {
            int f = from[i];
            from[i] = from[j];
            from[j] = f;
            int t = to[i];
            to[i] = to[j];
            to[j] = t;
        }
    }

    int start() {
        return from[0];
    }

    int end() {
        return to[count - 1];
    }

    /** The smallest {@code highest(from, to)} over the ranges. */
    int highestOver(java.util.function.IntBinaryOperator highest) {
        int h = Integer.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            h = Math.min(h, highest.applyAsInt(from[i], to[i]));
        }
        return h;
    }

    /** Positions covered, for spill priority. */
    int length() {
        int sum = 0;
        for (int i = 0; i < count; i++) {
            sum += to[i] - from[i];
        }
        return sum;
    }

    /** Advances the cursor past ranges ending at or before {@code pos}; true when a range covers {@code pos}. */
    boolean covers(int pos) {
        while (cursor < count && to[cursor] <= pos) {
            cursor++;
        }
        return cursor < count && from[cursor] <= pos;
    }

    /** Whether the two intervals share a position, looking only from their cursors on. */
    boolean intersects(LiveInterval o) {
        int i = cursor;
        int j = o.cursor;
        if (j >= o.count || i >= count || o.from[j] >= to[count - 1] || from[i] >= o.to[o.count - 1]) {
            return false;
        }
        while (i < count && j < o.count) {
            if (to[i] <= o.from[j]) {
                i++;
            } else if (o.to[j] <= from[i]) {
                j++;
            } else {
                return true;
            }
        }
        return false;
    }

    /** Whether the two intervals share a position anywhere (whole intervals, ignoring cursors). */
    boolean overlapsWhole(LiveInterval o) {
        // most intervals placed on a register lie wholly before or after: answer those without walking the ranges
        if (count == 0 || o.count == 0 || to[count - 1] <= o.from[0] || o.to[o.count - 1] <= from[0]) {
            return false;
        }
        return !overlapsOnlyWithin(o, NO_RANGES, NO_RANGES);
    }

    private static final int[] NO_RANGES = {};

    /**
     * Whether every stretch both intervals cover lies within one of the ranges [{@code lo[k]}, {@code hi[k]})
     * (whole intervals, ignoring cursors).
     */
    boolean overlapsOnlyWithin(LiveInterval o, int[] lo, int[] hi) {
        int i = 0;
        int j = 0;
        while (i < count && j < o.count) {
            int f = Math.max(from[i], o.from[j]);
            int t = Math.min(to[i], o.to[j]);
            if (f < t && !within(f, t, lo, hi)) {
                return false;
            }
            if (to[i] <= o.to[j]) {
                i++;
            } else {
                j++;
            }
        }
        return true;
    }

    private static boolean within(int f, int t, int[] lo, int[] hi) {
        for (int k = 0; k < lo.length; k++) {
            if (f >= lo[k] && t <= hi[k]) {
                return true;
            }
        }
        return false;
    }

    /** Absorbs {@code o}'s ranges (both finished); used when two registers are coalesced into one. */
    void absorb(LiveInterval o) {
        int[] nf = new int[count + o.count];
        int[] nt = new int[count + o.count];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < count || j < o.count) {
            int f;
            int t;
            if (j >= o.count || (i < count && from[i] <= o.from[j])) {
                f = from[i];
                t = to[i++];
            } else {
                f = o.from[j];
                t = o.to[j++];
            }
            if (n > 0 && f <= nt[n - 1]) {
                nt[n - 1] = Math.max(nt[n - 1], t);
            } else {
                nf[n] = f;
                nt[n++] = t;
            }
        }
        from = nf;
        to = nt;
        count = n;
        weight += o.weight;
        spillable &= o.spillable;
        rematDef = null;
        defs += o.defs;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(file.prefix()).append("v").append(key).append(':');
        for (int i = 0; i < count; i++) {
            sb.append(" [").append(from[i]).append(',').append(to[i]).append(')');
        }
        return sb.toString();
    }
}
