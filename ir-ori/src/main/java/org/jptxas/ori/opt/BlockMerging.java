package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;

/**
 * Straight-line blocks become one: a block entered only by falling through from the block before it joins that
 * block (its instructions move up; it stays, empty, so block numbers and branch targets do not change). If-conversion
 * leaves such chains behind (each predicated region was a block of its own), and the schedulers work within a block:
 * merged, the loads of several predicated regions can issue before the first of their uses, as ptxas issues them.
 */
public final class BlockMerging implements Pass {
    @Override
    public String name() {
        return "merge";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        List<BasicBlock> blocks = body.blocks();
        Cfg cfg = Cfg.of(body);
        // an entry of a jump table keeps its instructions where its label is: the moves below leave the graph
        // (computed once) behind, and a table's branch, unlike a fall-through, does not follow them
        java.util.BitSet tableEntries = new java.util.BitSet();
        for (BasicBlock b : blocks) {
            Instr last = b.last();
            if (last != null && last.isIndirectBranch()) {
                last.branchTargets().forEach(l -> tableEntries.set(l.block()));
            }
        }
        boolean changed = false;
        for (int a = 0; a < blocks.size(); a++) {
            BasicBlock into = blocks.get(a);
            if (!cfg.isReachable(a)) {
                continue;
            }
            // follow the chain of blocks each entered only from the one before, by falling through (the function's
            // last block stays as it is: it ends the function's control)
            int prev = a;
            int next = a + 1;
            boolean branched = false;
            while (next < blocks.size() - 1 && fallsThroughOnly(blocks.get(prev)) && onlyFrom(cfg, next, prev)
                    && !tableEntries.get(next)) {
                BasicBlock from = blocks.get(next);
                if (!from.instrs().isEmpty()) {
                    into.instrs().addAll(from.instrs());
                    from.instrs().clear();
                    changed = true;
                }
                prev = next++;
                Instr last = into.last();
                if (last != null && last.isTerminator()) {
                    branched = true; // a branch ends the merged block: the emptied blocks after it start a new chain
                    break;
                }
            }
            a = branched ? a : prev;
        }
        return changed;
    }

    /** The block's end lets control only fall through (no branch, return or exit, guarded or not). */
    private static boolean fallsThroughOnly(BasicBlock b) {
        Instr last = b.last();
        return last == null || !last.isTerminator();
    }

    private static boolean onlyFrom(Cfg cfg, int block, int pred) {
        int[] p = cfg.predecessors(block);
        return p.length == 1 && p[0] == pred;
    }
}
