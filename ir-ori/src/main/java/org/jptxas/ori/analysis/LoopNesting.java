package org.jptxas.ori.analysis;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Loop depth of every block: the number of natural loops containing it. A natural loop is found from each back
 * edge {@code b -> h} where {@code h} dominates {@code b}; its body is every block that reaches {@code b} without
 * passing through {@code h}. Unreachable blocks have depth 0.
 */
public final class LoopNesting {
    private final int[] depth;

    public LoopNesting(Cfg cfg, Dominators dominators) {
        int n = cfg.size();
        depth = new int[n];
        boolean[] inLoop = new boolean[n];
        Deque<Integer> work = new ArrayDeque<>();
        for (int h = 0; h < n; h++) {
            if (!cfg.isReachable(h)) {
                continue;
            }
            java.util.Arrays.fill(inLoop, false);
            boolean any = false;
            for (int b : cfg.predsView(h)) {
                if (cfg.isReachable(b) && dominators.dominates(h, b)) {
                    any = true;
                    if (!inLoop[b]) {
                        inLoop[b] = true;
                        work.push(b);
                    }
                }
            }
            if (!any) {
                continue;
            }
            inLoop[h] = true;
            while (!work.isEmpty()) {
                int b = work.pop();
                if (b == h) {
                    continue;
                }
                for (int p : cfg.predsView(b)) {
                    if (!inLoop[p] && cfg.isReachable(p)) {
                        inLoop[p] = true;
                        work.push(p);
                    }
                }
            }
            for (int b = 0; b < n; b++) {
                if (inLoop[b]) {
                    depth[b]++;
                }
            }
        }
    }

    /** How many loops contain {@code block}; 0 outside every loop. */
    public int depth(int block) {
        return depth[block];
    }
}
