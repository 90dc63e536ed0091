package org.jptxas.scheduler.list;

/**
 * The ready list as two sorted arrays of node indices. Each node's sort key is frozen while it is in the list
 * (stored in the arrays below) and changed only between {@link #detach} and {@link #attach}, so a node is found by
 * binary search. Ready lists hold tens of nodes: shifting an array is cheaper than a tree's boxed entries and
 * comparator calls, and the C1-compiled compile server allocates nothing per operation here.
 *
 * <p>Order: the packed priority byte by the multi-stage bit scan, then critical-path height (longer first), then
 * earliest issue cycle, then original position (earlier first) — a total, deterministic order. A second array orders
 * the same nodes by GPR-pressure delta first, for selections made while pressure is over budget.
 */
final class ReadyList {
    final int[] priority;
    final int[] height;
    final int[] earliest;
    final int[] gprDelta;
    private final int[] byPriority;
    private final int[] byPressure;
    private int size;

    ReadyList(int n) {
        priority = new int[n];
        height = new int[n];
        earliest = new int[n];
        gprDelta = new int[n];
        byPriority = new int[n];
        byPressure = new int[n];
    }

    private int comparePriority(int a, int b) {
        int c = Priority.compareBits(priority[a], priority[b]);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(height[b], height[a]);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(earliest[a], earliest[b]);
        return c != 0 ? c : Integer.compare(a, b);
    }

    private int comparePressure(int a, int b) {
        int c = Integer.compare(gprDelta[a], gprDelta[b]);
        return c != 0 ? c : comparePriority(a, b);
    }

    /**
     * Where {@code node} is in {@code sorted} (its index), or where it would go ({@code -(insertion point) - 1}).
     */
    private int search(int[] sorted, int node, boolean pressure) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = pressure ? comparePressure(sorted[mid], node) : comparePriority(sorted[mid], node);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /** Adds a node not in the list. */
    void add(int node) {
        int p = -search(byPriority, node, false) - 1;
        int q = -search(byPressure, node, true) - 1;
        System.arraycopy(byPriority, p, byPriority, p + 1, size - p);
        byPriority[p] = node;
        System.arraycopy(byPressure, q, byPressure, q + 1, size - q);
        byPressure[q] = node;
        size++;
    }

    /** Removes a node; false when it was not in the list. */
    boolean remove(int node) {
        int p = search(byPriority, node, false);
        if (p < 0) {
            return false;
        }
        int q = search(byPressure, node, true);
        size--;
        System.arraycopy(byPriority, p + 1, byPriority, p, size - p);
        System.arraycopy(byPressure, q + 1, byPressure, q, size - q);
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The best node; {@code pressureFirst} selects the pressure-relief order. */
    int best(boolean pressureFirst) {
        if (size == 0) {
            throw new java.util.NoSuchElementException("empty ready list");
        }
        return pressureFirst ? byPressure[0] : byPriority[0];
    }

    /**
     * Takes a node out of the list before its key changes; {@link #attach} with the answer puts it back. (A method
     * pair rather than a callback: a capturing lambda per change allocates in C1-compiled code.)
     */
    boolean detach(int node) {
        return remove(node);
    }

    /** Puts a node {@link #detach} took out back, under its new key; nothing when it was not in the list. */
    void attach(int node, boolean wasPresent) {
        if (wasPresent) {
            add(node);
        }
    }

    /** The node at {@code rank} in priority order (0: the best). */
    int node(int rank) {
        return byPriority[rank];
    }

    /** The nodes in priority order, a copy. */
    int[] nodes() {
        return java.util.Arrays.copyOf(byPriority, size);
    }
}
