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
 *
 * <p>A block that ends in an unguarded {@code BRA T} (often a branch constant folding made unconditional) takes
 * T's instructions in place of the branch when it is T's only way in and T ends control itself (an unguarded branch,
 * return or exit): ptxas 13 lays such a T out right after its one predecessor, so control falls through.
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
        java.util.Map<Integer, Integer> labelUses = BranchCleanup.labelUses(body);
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
                    if (!into.instrs().isEmpty()) {
                        into.setFoldedBranchLine(0); // a folded branch's place no longer starts the block's code
                    }
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
            int holder = prev; // the block whose (graph-recorded) end is now into's end
            Integer target;
            while ((target = soleJumpTarget(into, blocks, cfg, a, holder, tableEntries, labelUses)) != null) {
                BasicBlock t = blocks.get(target);
                into.instrs().remove(into.instrs().size() - 1);
                into.instrs().addAll(t.instrs());
                t.instrs().clear();
                holder = target;
                changed = true;
            }
            a = branched ? a : prev;
        }
        return changed;
    }

    /**
     * The block {@code into}'s unguarded {@code BRA} leads to, when that block can follow it in place of the branch:
     * entered only from {@code holder} (the block the branch stood in when the graph was built) and named by no other
     * label, after {@code at} in layout and not a jump-table entry, and ending control itself, so nothing falls through
     * from where it stood (emptied there, it is unreachable). Null otherwise.
     */
    private static Integer soleJumpTarget(BasicBlock into, List<BasicBlock> blocks, Cfg cfg, int at, int holder,
            java.util.BitSet tableEntries, java.util.Map<Integer, Integer> labelUses) {
        Instr last = into.last();
        if (last == null || !OpInfo.is(last, "BRA") || !last.guard().isAlways() || !last.mods().isEmpty()
                || last.srcs().size() != 1 || last.branchTarget() == null) {
            return null;
        }
        int t = last.branchTarget().block();
        // forward only: a block before `at` was already visited, and may hold code merged from elsewhere
        if (t <= at || tableEntries.get(t) || !onlyFrom(cfg, t, holder)
                || labelUses.getOrDefault(t, 0) != 1) {
            return null;
        }
        Instr end = blocks.get(t).last();
        return end != null && end.endsControl() ? t : null;
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
