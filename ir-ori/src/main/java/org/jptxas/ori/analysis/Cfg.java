package org.jptxas.ori.analysis;

import java.util.Arrays;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Src;

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
        // predecessors counted first, then filled in block order (boxed lists and streams showed: the graph is
        // rebuilt by every def-use analysis and register allocation round)
        int[] count = new int[n];
        for (int b = 0; b < n; b++) {
            for (int s : succs[b]) {
                count[s]++;
            }
        }
        this.preds = new int[n][];
        for (int i = 0; i < n; i++) {
            preds[i] = new int[count[i]];
            count[i] = 0;
        }
        for (int b = 0; b < n; b++) {
            for (int s : succs[b]) {
                preds[s][count[s]++] = b;
            }
        }
        this.reachable = new boolean[n];
        this.reversePostorder = n == 0 ? new int[0] : postorderFromEntry(n);
    }

    public static Cfg of(FunctionBody body) {
        List<BasicBlock> blocks = body.blocks();
        int n = blocks.size();
        int[][] succs = new int[n][];
        int[] targets = new int[4];
        for (int bi = 0; bi < n; bi++) {
            BasicBlock b = blocks.get(bi);
            int count = 0;
            Instr last = b.last();
            if (last != null && last.isTerminator()) {
                // the blocks its label operands name, each once, in the order first named
                List<Src> srcs = last.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    if (!(srcs.get(i).value() instanceof BlockLabel target)
                            || contains(targets, count, target.block())) {
                        continue;
                    }
                    if (target.block() < 0 || target.block() >= n) {
                        throw new IllegalArgumentException(b + " branches to missing block " + target);
                    }
                    if (count == targets.length) {
                        targets = Arrays.copyOf(targets, 2 * count);
                    }
                    targets[count++] = target.block();
                }
            }
            if ((last == null || !last.endsControl()) && b.id() + 1 < n && !contains(targets, count, b.id() + 1)) {
                if (count == targets.length) {
                    targets = Arrays.copyOf(targets, 2 * count);
                }
                targets[count++] = b.id() + 1;
            }
            succs[b.id()] = Arrays.copyOf(targets, count);
        }
        return new Cfg(succs);
    }

    private static boolean contains(int[] values, int count, int value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    /** Builds a graph directly from successor lists (tests, synthetic graphs). */
    public static Cfg fromSuccessors(int[][] succs) {
        return new Cfg(Arrays.stream(succs).map(int[]::clone).toArray(int[][]::new));
    }

    private int[] postorderFromEntry(int n) {
        int[] order = new int[n];
        int count = 0;
        int[] nextChild = new int[n];
        // each block is pushed once, when first reached: n entries suffice
        int[] stack = new int[n];
        int top = 0;
        stack[top++] = 0;
        reachable[0] = true;
        while (top > 0) {
            int b = stack[top - 1];
            if (nextChild[b] < succs[b].length) {
                int s = succs[b][nextChild[b]++];
                if (!reachable[s]) {
                    reachable[s] = true;
                    stack[top++] = s;
                }
            } else {
                top--;
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
