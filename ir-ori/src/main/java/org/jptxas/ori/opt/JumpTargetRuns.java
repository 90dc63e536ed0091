package org.jptxas.ori.opt;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;

/**
 * A block ending in an unguarded {@code BRA T}, where that branch is T's only way in, gets T laid out right after it
 * together with the blocks T falls through into, up to the first that ends control itself (an unguarded branch,
 * return or exit); the branch goes. ptxas 13 lays such a run out behind its one predecessor, so that control falls
 * through, and a flag test constant folding made unconditional then leaves no jump (and no source line of its own)
 * behind. {@link BlockMerging} already takes a one-block T up; this moves the longer runs (several blocks: a loop,
 * a conditional inside), which keep their labels.
 *
 * <p>The run is neither entered by falling through (T's only way in is the branch) nor left that way (its last block
 * ends control), and the blocks it jumps over are left after it where it stood: they end control before T (nothing
 * falls into T but unreachable code), so moving them changes no edge either.
 */
public final class JumpTargetRuns implements Pass {
    /** Moves per run of the pass: each renumbers the blocks; a function has few such branches. */
    private static final int MAX_MOVES = 64;

    @Override
    public String name() {
        return "jump-target-runs";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (int moves = 0; moves < MAX_MOVES; moves++) {
            if (!moveOne(body)) {
                break;
            }
            changed = true;
        }
        return changed;
    }

    /** Finds and moves the first run that qualifies; false when none does. */
    private static boolean moveOne(FunctionBody body) {
        List<BasicBlock> blocks = body.blocks();
        Cfg cfg = Cfg.of(body);
        BitSet tableEntries = new BitSet();
        for (BasicBlock b : blocks) {
            Instr last = b.last();
            if (last != null && last.isIndirectBranch()) {
                last.branchTargets().forEach(l -> tableEntries.set(l.block()));
            }
        }
        Map<Integer, Integer> labelUses = BranchCleanup.labelUses(body);
        for (int p = 0; p < blocks.size(); p++) {
            if (!cfg.isReachable(p)) {
                continue;
            }
            Instr last = blocks.get(p).last();
            if (last == null || !OpInfo.is(last, "BRA") || !last.guard().isAlways() || !last.mods().isEmpty()
                    || last.srcs().size() != 1 || last.branchTarget() == null) {
                continue;
            }
            int t = last.branchTarget().block();
            // forward only, and not the next block (that branch is a fall-through, removed elsewhere)
            if (t <= p + 1 || tableEntries.get(t) || labelUses.getOrDefault(t, 0) != 1
                    || !onlyReachableFrom(cfg, t, p)) {
                continue;
            }
            int end = runEnd(blocks, t);
            if (end < 0 || end == blocks.size() - 1 && !endsQuietly(blocks.get(t - 1))) {
                // the blocks jumped over would end the function: the last may not fall off it
                continue;
            }
            blocks.get(p).instrs().remove(blocks.get(p).instrs().size() - 1);
            body.moveBlocks(t, end + 1, p + 1);
            return true;
        }
        return false;
    }

    /** The first block from {@code t} on that ends control itself, or -1 when control falls off the function. */
    private static int runEnd(List<BasicBlock> blocks, int t) {
        for (int e = t; e < blocks.size(); e++) {
            Instr last = blocks.get(e).last();
            if (last != null && last.endsControl()) {
                return e;
            }
        }
        return -1;
    }

    /** Control does not fall off the block's end: it ends control itself, or is empty (nothing reaches it). */
    private static boolean endsQuietly(BasicBlock b) {
        Instr last = b.last();
        return last == null || last.endsControl();
    }

    /** Every predecessor of {@code block} but {@code pred} (which is one) is unreachable code. */
    private static boolean onlyReachableFrom(Cfg cfg, int block, int pred) {
        boolean seen = false;
        for (int q : cfg.predecessors(block)) {
            if (q == pred) {
                seen = true;
            } else if (cfg.isReachable(q)) {
                return false;
            }
        }
        return seen;
    }
}
