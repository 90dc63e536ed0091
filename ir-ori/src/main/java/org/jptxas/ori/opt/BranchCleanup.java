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
 * ({@code @P0 EXIT}, as ptxas writes a kernel's bounds check), and an unconditional branch to the block that
 * follows in layout disappears.
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
            if (target.size() == 1 && OpInfo.is(target.get(0), "EXIT") && target.get(0).guard().isAlways()
                    && target.get(0).srcs().isEmpty() && target.get(0).mods().isEmpty()) {
                last.setOp(OpInfo.op("EXIT"));
                last.srcs().clear();
                changed = true;
            }
        }
        changed |= invertOverJumps(body);
        return ConstantFolding.removeJumpsToNext(body) | changed;
    }

    /**
     * {@code @P BRA T} followed by a block that only jumps ({@code BRA U}, reached from nowhere else) with T right
     * after it: {@code @!P BRA U}, falling through to T (one branch fewer on the path to T, none taken to U).
     */
    private static boolean invertOverJumps(FunctionBody body) {
        List<BasicBlock> blocks = body.blocks();
        boolean changed = false;
        Map<Integer, Integer> labelUses = null; // block id -> sources naming it; counted once, on first need
        for (int i = 0; i + 2 < blocks.size(); i++) {
            Instr last = blocks.get(i).last();
            BasicBlock jump = blocks.get(i + 1);
            if (last == null || !OpInfo.is(last, "BRA") || last.guard().isAlways() || !last.mods().isEmpty()
                    || last.srcs().size() != 1 || last.branchTarget() == null
                    || last.branchTarget().block() != blocks.get(i + 2).id() || jump.instrs().size() != 1) {
                continue;
            }
            Instr only = jump.instrs().get(0);
            if (!OpInfo.is(only, "BRA") || !only.guard().isAlways() || !only.mods().isEmpty()
                    || only.srcs().size() != 1 || only.branchTarget() == null) {
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
            last.srcs().set(0, only.srcs().get(0));
            last.setGuard(new Guard(last.guard().predicate(), !last.guard().negated()));
            jump.instrs().clear();
            changed = true;
        }
        return changed;
    }

    /** How many sources name each block (one scan, where asking per candidate block made the pass quadratic). */
    private static Map<Integer, Integer> labelUses(FunctionBody body) {
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
