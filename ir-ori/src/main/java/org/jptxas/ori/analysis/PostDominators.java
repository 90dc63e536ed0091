package org.jptxas.ori.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Immediate post-dominators: the dominators of the reversed graph rooted at a virtual exit that every block without
 * successors (EXIT, RET) flows into. The virtual exit is numbered {@link #exit()} (the block count). Blocks that cannot
 * reach an exit (an endless loop) or the entry cannot reach have no post-dominator ({@code -1}).
 */
public final class PostDominators {
    private final int exit;
    private final int[] ipdom;
    private final int[] order;

    public PostDominators(Cfg cfg) {
        int n = cfg.size();
        exit = n;
        List<List<Integer>> reverseSuccs = new ArrayList<>(n + 1);
        List<List<Integer>> reversePreds = new ArrayList<>(n + 1);
        for (int i = 0; i <= n; i++) {
            reverseSuccs.add(new ArrayList<>());
            reversePreds.add(new ArrayList<>());
        }
        for (int b = 0; b < n; b++) {
            if (!cfg.isReachable(b)) {
                continue;
            }
            int[] succs = cfg.succsView(b);
            if (succs.length == 0) {
                reverseSuccs.get(exit).add(b);
                reversePreds.get(b).add(exit);
            }
            for (int s : succs) {
                reverseSuccs.get(s).add(b);
                reversePreds.get(b).add(s);
            }
        }
        // Postorder of the reversed graph from the virtual exit.
        order = new int[n + 1];
        Arrays.fill(order, -1);
        int[] postorder = new int[n + 1];
        int count = 0;
        int[] next = new int[n + 1];
        boolean[] seen = new boolean[n + 1];
        Deque<Integer> stack = new ArrayDeque<>();
        stack.push(exit);
        seen[exit] = true;
        while (!stack.isEmpty()) {
            int v = stack.peek();
            List<Integer> rs = reverseSuccs.get(v);
            if (next[v] < rs.size()) {
                int w = rs.get(next[v]++);
                if (!seen[w]) {
                    seen[w] = true;
                    stack.push(w);
                }
            } else {
                stack.pop();
                postorder[count++] = v;
            }
        }
        int[] rpo = new int[count];
        for (int i = 0; i < count; i++) {
            rpo[i] = postorder[count - 1 - i];
            order[rpo[i]] = i;
        }
        ipdom = new int[n + 1];
        Arrays.fill(ipdom, -1);
        ipdom[exit] = exit;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < count; i++) {
                int b = rpo[i];
                int candidate = -1;
                for (int p : reversePreds.get(b)) {
                    if (ipdom[p] == -1) {
                        continue;
                    }
                    candidate = candidate == -1 ? p : intersect(p, candidate);
                }
                if (candidate != ipdom[b]) {
                    ipdom[b] = candidate;
                    changed = true;
                }
            }
        }
    }

    private int intersect(int a, int b) {
        while (a != b) {
            while (order[a] > order[b]) {
                a = ipdom[a];
            }
            while (order[b] > order[a]) {
                b = ipdom[b];
            }
        }
        return a;
    }

    /** The number of the virtual exit node (the block count). */
    public int exit() {
        return exit;
    }

    /** The immediate post-dominator: a block, {@link #exit()}, or -1 when the block cannot reach an exit. */
    public int ipdom(int block) {
        return block == exit ? exit : ipdom[block];
    }

    /** True when every path from {@code b} to the exit passes through {@code a} (a block post-dominates itself). */
    public boolean postDominates(int a, int b) {
        if (ipdom(b) == -1 || ipdom(a) == -1) {
            return false;
        }
        int x = b;
        while (true) {
            if (x == a) {
                return true;
            }
            if (x == exit) {
                return false;
            }
            x = ipdom[x];
        }
    }
}
