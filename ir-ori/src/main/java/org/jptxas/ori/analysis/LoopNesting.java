package org.jptxas.ori.analysis;

/**
 * Loop depth of every block: the number of natural loops containing it. A natural loop is found from each back
 * edge {@code b -> h} where {@code h} dominates {@code b}; its body is every block that reaches {@code b} without
 * passing through {@code h}. Unreachable blocks have depth 0. Each block's innermost loop is the smallest holding it.
 */
public final class LoopNesting {
    private final int[] depth;
    /** The header of the smallest loop holding each block, -1 outside every loop; and that loop's block count. */
    private final int[] innermost;
    private final int[] innermostSize;

    public LoopNesting(Cfg cfg, Dominators dominators) {
        int n = cfg.size();
        depth = new int[n];
        innermost = new int[n];
        innermostSize = new int[n];
        java.util.Arrays.fill(innermost, -1);
        boolean[] inLoop = new boolean[n];
        // the blocks of the loop being found, which are also its work list: a header's loop is cleared and counted
        // through them instead of over every block (that made this quadratic in the blocks of large kernels)
        int[] members = new int[n];
        for (int h = 0; h < n; h++) {
            if (!cfg.isReachable(h)) {
                continue;
            }
            int count = 0;
            for (int b : cfg.predsView(h)) {
                if (cfg.isReachable(b) && dominators.dominates(h, b) && !inLoop[b]) {
                    inLoop[b] = true;
                    members[count++] = b;
                }
            }
            if (count == 0) {
                continue;
            }
            if (!inLoop[h]) {
                inLoop[h] = true;
                members[count++] = h;
            }
            for (int next = 0; next < count; next++) {
                int b = members[next];
                if (b == h) {
                    continue;
                }
                for (int p : cfg.predsView(b)) {
                    if (!inLoop[p] && cfg.isReachable(p)) {
                        inLoop[p] = true;
                        members[count++] = p;
                    }
                }
            }
            for (int i = 0; i < count; i++) {
                int b = members[i];
                depth[b]++;
                inLoop[b] = false;
                if (innermost[b] < 0 || count < innermostSize[b]) {
                    innermost[b] = h;
                    innermostSize[b] = count;
                }
            }
        }
    }

    /** How many loops contain {@code block}; 0 outside every loop. */
    public int depth(int block) {
        return depth[block];
    }

    /** The header of the smallest loop holding {@code block}, or -1 outside every loop. */
    public int innermostHeader(int block) {
        return innermost[block];
    }

    /**
     * The blocks of the natural loop headed by {@code header}: the header and every block that reaches one of its
     * back edges' sources without passing through it. Empty when no back edge enters {@code header}.
     */
    public static java.util.BitSet naturalLoop(Cfg cfg, Dominators dominators, int header) {
        java.util.BitSet body = new java.util.BitSet();
        IntQueue work = null;
        for (int b : cfg.predsView(header)) {
            if (cfg.isReachable(b) && dominators.dominates(header, b) && !body.get(b)) {
                if (work == null) {
                    // most blocks head no loop: their empty answer allocates nothing of the function's size
                    work = new IntQueue(16);
                }
                body.set(b);
                work.add(b);
            }
        }
        if (work == null) {
            return body;
        }
        body.set(header);
        while (!work.isEmpty()) {
            int b = work.poll();
            if (b == header) {
                continue;
            }
            for (int p : cfg.predsView(b)) {
                if (!body.get(p) && cfg.isReachable(p)) {
                    body.set(p);
                    work.add(p);
                }
            }
        }
        return body;
    }
}
