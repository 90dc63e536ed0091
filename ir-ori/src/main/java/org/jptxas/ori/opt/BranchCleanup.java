package org.jptxas.ori.opt;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;

/**
 * Branch cleanup: a branch (guarded or not) to a block that only exits becomes the exit itself
 * ({@code @P0 EXIT}, as ptxas writes a kernel's bounds check), a branch to a block that only returns becomes the
 * return itself ({@code @P0 RET.REL.NODEC}, as ptxas leaves a subroutine early), and an unconditional branch to the
 * block that follows in layout disappears.
 */
public final class BranchCleanup implements Pass {
    @Override
    public String name() {
        return "branches";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            Instr last = b.last();
            if (last == null || !OpInfo.is(last, "BRA") || !last.mods().isEmpty() || last.srcs().size() != 1
                    || last.branchTarget() == null) {
                continue;
            }
            List<Instr> target = body.block(last.branchTarget().block()).instrs();
            // ptxas copies only a lone exit or return: with anything else in the block its predecessors branch
            // there; copied, the arms of a branch end in returns of their own, and no join is left for a barrier
            if (target.size() == 1 && (isLoneExit(target.get(0)) || isLoneReturn(target.get(0)))) {
                becomeCopyOf(last, target.get(0));
                changed = true;
            }
        }
        changed |= invertOverJumps(body);
        return ConstantFolding.removeJumpsToNext(body) | changed;
    }

    /** The branch {@code jump} becomes {@code leave} (an EXIT or RET), keeping its own guard. */
    private static void becomeCopyOf(Instr jump, Instr leave) {
        jump.setOp(leave.op());
        jump.setMods(leave.mods());
        jump.srcs().clear();
        jump.srcs().addAll(leave.srcs());
    }

    /** An unguarded plain EXIT. */
    private static boolean isLoneExit(Instr in) {
        return OpInfo.is(in, "EXIT") && in.guard().isAlways() && in.srcs().isEmpty() && in.mods().isEmpty();
    }

    /** An unguarded return that reads nothing but its return address (and names its section's function). */
    static boolean isLoneReturn(Instr in) {
        if (!OpInfo.is(in, "RET") || !in.guard().isAlways()) {
            return false;
        }
        for (org.jptxas.ori.ir.Src s : in.srcs()) {
            if (s.value() instanceof org.jptxas.ori.ir.BlockLabel) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code @P BRA T} followed by a block that only jumps ({@code BRA U}, reached from nowhere else) with T right
     * after it: {@code @!P BRA U}, falling through to T (one branch fewer on the path to T, none taken to U). A block
     * that only exits or returns goes the same way ({@code @!P EXIT}, {@code @!P RET}), as ptxas leaves early.
     */
    private static boolean invertOverJumps(FunctionBody body) {
        List<BasicBlock> blocks = body.blocks();
        boolean changed = false;
        Map<Integer, Integer> labelUses = null; // block id -> sources naming it; counted once, on first need
        for (int i = 0; i + 2 < blocks.size(); i++) {
            Instr last = blocks.get(i).last();
            BasicBlock jump = blocks.get(i + 1);
            if (last == null || !OpInfo.is(last, "BRA") || last.guard().isAlways() || !last.mods().isEmpty()
                    || last.srcs().size() != 1 || last.branchTarget() == null || jump.instrs().size() != 1
                    || !nextWithCode(blocks, i + 2, last.branchTarget().block())) {
                continue;
            }
            Instr only = jump.instrs().get(0);
            boolean leaves = isLoneReturn(only) || isLoneExit(only);
            if (!leaves && (!OpInfo.is(only, "BRA") || !only.guard().isAlways() || !only.mods().isEmpty()
                    || only.srcs().size() != 1 || only.branchTarget() == null)) {
                continue;
            }
            if (labelUses == null) {
                labelUses = labelUses(body);
            }
            if (labelUses.getOrDefault(jump.id(), 0) > 0) {
                continue;
            }
            // the label of T leaves `last`; U's moves from `only` to `last` (its count stays)
            labelUses.merge(last.branchTarget().block(), -1, Integer::sum);
            if (leaves) {
                becomeCopyOf(last, only);
            } else {
                last.srcs().set(0, only.srcs().get(0));
            }
            last.setGuard(new Guard(last.guard().predicate(), !last.guard().negated()));
            jump.instrs().clear();
            changed = true;
        }
        return changed;
    }

    /**
     * Whether the block {@code id} is the first from layout position {@code from} on that holds code: the emptied
     * blocks before it (unreachable code that dead-code elimination cleared) fall through to it.
     */
    private static boolean nextWithCode(List<BasicBlock> blocks, int from, int id) {
        for (int j = from; j < blocks.size(); j++) {
            if (blocks.get(j).id() == id) {
                return true;
            }
            if (!blocks.get(j).instrs().isEmpty()) {
                return false;
            }
        }
        return false;
    }

    /** How many sources name each block (one scan, where asking per candidate block made the pass quadratic). */
    static Map<Integer, Integer> labelUses(FunctionBody body) {
        Map<Integer, Integer> uses = new HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (org.jptxas.ori.ir.Src s : in.srcs()) {
                    if (s.value() instanceof org.jptxas.ori.ir.BlockLabel l) {
                        uses.merge(l.block(), 1, Integer::sum);
                    }
                }
            }
        }
        return uses;
    }
}
