package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
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
        return ConstantFolding.removeJumpsToNext(body) | changed;
    }
}
