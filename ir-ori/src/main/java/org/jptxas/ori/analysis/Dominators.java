package org.jptxas.ori.analysis;

import java.util.Arrays;

/**
 * Immediate dominators by the iterative algorithm of Cooper, Harvey and Kennedy over reverse postorder; near-linear
 * on the reducible graphs compilers see. Unreachable blocks have no dominator.
 */
public final class Dominators {
    private final int[] idom;
    private final int[] rpoIndex;

    public Dominators(Cfg cfg) {
        int n = cfg.size();
        int[] rpo = cfg.reversePostorder();
        rpoIndex = new int[n];
        Arrays.fill(rpoIndex, -1);
        for (int i = 0; i < rpo.length; i++) {
            rpoIndex[rpo[i]] = i;
        }
        idom = new int[n];
        Arrays.fill(idom, -1);
        if (rpo.length == 0) {
            return;
        }
        idom[rpo[0]] = rpo[0];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < rpo.length; i++) {
                int b = rpo[i];
                int newIdom = -1;
                for (int p : cfg.predsView(b)) {
                    if (idom[p] == -1) {
                        continue;
                    }
                    newIdom = newIdom == -1 ? p : intersect(p, newIdom);
                }
                if (newIdom != idom[b]) {
                    idom[b] = newIdom;
                    changed = true;
                }
            }
        }
    }

    private int intersect(int a, int b) {
        while (a != b) {
            while (rpoIndex[a] > rpoIndex[b]) {
                a = idom[a];
            }
            while (rpoIndex[b] > rpoIndex[a]) {
                b = idom[b];
            }
        }
        return a;
    }

    /** The immediate dominator; the entry is its own; -1 for unreachable blocks. */
    public int idom(int block) {
        return idom[block];
    }

    /** True when every path from the entry to {@code b} passes through {@code a} (a block dominates itself). */
    public boolean dominates(int a, int b) {
        if (idom[b] == -1 || idom[a] == -1) {
            return false;
        }
        int x = b;
        while (true) {
            if (x == a) {
                return true;
            }
            int up = idom[x];
            if (up == x) {
                return false;
            }
            x = up;
        }
    }
}
