package org.jptxas.ori.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;

/**
 * The control-flow graph of a function body, as immutable arrays indexed by block id. Successors come from the
 * last instruction of each block: a branch target (each entry of a jump table), plus the next block in layout unless control cannot fall through.
 */
public final class Cfg {
    private final int[][] succs;
    private final int[][] preds;
    private final int[] reversePostorder;
    private final boolean[] reachable;

    private Cfg(int[][] succs) {
        int n = succs.length;
        this.succs = succs;
        List<List<Integer>> p = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            p.add(new ArrayList<>());
        }
        for (int b = 0; b < n; b++) {
            for (int s : succs[b]) {
                p.get(s).add(b);
            }
        }
        this.preds = new int[n][];
        for (int i = 0; i < n; i++) {
            preds[i] = p.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        this.reachable = new boolean[n];
        this.reversePostorder = n == 0 ? new int[0] : postorderFromEntry(n);
    }

    public static Cfg of(FunctionBody body) {
        int n = body.blocks().size();
        int[][] succs = new int[n][];
        for (BasicBlock b : body.blocks()) {
            List<Integer> s = new ArrayList<>(2);
            Instr last = b.last();
            if (last != null && last.isTerminator()) {
                for (BlockLabel target : last.branchTargets()) {
                    if (target.block() < 0 || target.block() >= n) {
                        throw new IllegalArgumentException(b + " branches to missing block " + target);
                    }
                    s.add(target.block());
                }
            }
            if ((last == null || !last.endsControl()) && b.id() + 1 < n && !s.contains(b.id() + 1)) {
                s.add(b.id() + 1);
            }
            succs[b.id()] = s.stream().mapToInt(Integer::intValue).toArray();
        }
        return new Cfg(succs);
    }

    /** Builds a graph directly from successor lists (tests, synthetic graphs). */
    public static Cfg fromSuccessors(int[][] succs) {
        return new Cfg(Arrays.stream(succs).map(int[]::clone).toArray(int[][]::new));
    }

    private int[] postorderFromEntry(int n) {
        int[] order = new int[n];
        int count = 0;
        int[] nextChild = new int[n];
        Deque<Integer> stack = new ArrayDeque<>();
        stack.push(0);
        reachable[0] = true;
        while (!stack.isEmpty()) {
            int b = stack.peek();
            if (nextChild[b] < succs[b].length) {
                int s = succs[b][nextChild[b]++];
                if (!reachable[s]) {
                    reachable[s] = true;
                    stack.push(s);
                }
            } else {
                stack.pop();
                order[count++] = b;
            }
        }
        int[] rpo = new int[count];
        for (int i = 0; i < count; i++) {
            rpo[i] = order[count - 1 - i];
        }
        return rpo;
    }

    public int size() {
        return succs.length;
    }

    public int[] successors(int block) {
        return succs[block].clone();
    }

    public int[] predecessors(int block) {
        return preds[block].clone();
    }

    /** Reachable blocks in reverse postorder from the entry (block 0). */
    public int[] reversePostorder() {
        return reversePostorder.clone();
    }

    public boolean isReachable(int block) {
        return reachable[block];
    }

    int[] succsView(int block) {
        return succs[block];
    }

    int[] predsView(int block) {
        return preds[block];
    }
}
