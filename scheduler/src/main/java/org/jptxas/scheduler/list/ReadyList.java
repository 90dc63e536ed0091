package org.jptxas.scheduler.list;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The ready list as a red-black tree ({@link TreeSet}) of node indices. Each node's sort key is frozen while it is in
 * the tree (stored in the arrays below) and changed only by {@link #rekey}, which removes and re-inserts it.
 *
 * <p>Order: the packed priority byte by the multi-stage bit scan, then critical-path height (longer first), then
 * earliest issue cycle, then original position (earlier first) — a total, deterministic order. A second tree orders
 * the same nodes by GPR-pressure delta first, for selections made while pressure is over budget.
 */
final class ReadyList {
    final int[] priority;
    final int[] height;
    final int[] earliest;
    final int[] gprDelta;
    private final TreeSet<Integer> byPriority;
    private final TreeSet<Integer> byPressure;

    ReadyList(int n) {
        priority = new int[n];
        height = new int[n];
        earliest = new int[n];
        gprDelta = new int[n];
        Comparator<Integer> prio = (a, b) -> {
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
        };
        byPriority = new TreeSet<>(prio);
        byPressure = new TreeSet<>((a, b) -> {
            int c = Integer.compare(gprDelta[a], gprDelta[b]);
            return c != 0 ? c : prio.compare(a, b);
        });
    }

    void add(int node) {
        byPriority.add(node);
        byPressure.add(node);
    }

    void remove(int node) {
        byPriority.remove(node);
        byPressure.remove(node);
    }

    boolean contains(int node) {
        return byPriority.contains(node);
    }

    boolean isEmpty() {
        return byPriority.isEmpty();
    }

    int size() {
        return byPriority.size();
    }

    /** The best node; {@code pressureFirst} selects the pressure-relief order. */
    int best(boolean pressureFirst) {
        return pressureFirst ? byPressure.first() : byPriority.first();
    }

    /** Changes a node's key: the node leaves the trees, {@code update} runs, the node re-enters. */
    void rekey(int node, Runnable update) {
        boolean present = byPriority.remove(node);
        if (present) {
            byPressure.remove(node);
        }
        update.run();
        if (present) {
            add(node);
        }
    }

    Iterable<Integer> nodes() {
        return byPriority;
    }
}
