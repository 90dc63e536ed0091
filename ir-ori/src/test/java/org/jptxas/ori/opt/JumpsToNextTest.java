package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * A branch folded to always go leaves the blocks it skipped empty (kept, so block numbers stay): a {@code BRA} over
 * them only is a fall-through and goes, as ptxas's code runs straight into the join; one over code stays.
 */
class JumpsToNextTest {
    @Test
    void aBranchOverEmptyBlocksOnlyIsAFallThrough() {
        for (boolean codeBetween : new boolean[] {false, true}) {
            FunctionBody f = new FunctionBody();
            BasicBlock b0 = f.addBlock(null);
            f.addBlock(null);
            BasicBlock b2 = f.addBlock(null);
            BasicBlock b3 = f.addBlock(null);
            b0.instrs().add(ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(3))));
            if (codeBetween) {
                b2.instrs().add(ins("EXIT", List.of(), List.of()));
            }
            b3.instrs().add(ins("EXIT", List.of(), List.of()));
            boolean changed = ConstantFolding.removeJumpsToNext(f);
            assertEquals(!codeBetween, changed);
            assertEquals(codeBetween, !b0.instrs().isEmpty());
        }
    }

    @Test
    void aBackwardBranchStays() {
        FunctionBody f = new FunctionBody();
        BasicBlock b0 = f.addBlock(null);
        BasicBlock b1 = f.addBlock(null);
        b0.instrs().add(ins("EXIT", List.of(), List.of()));
        b1.instrs().add(ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(0))));
        assertEquals(false, ConstantFolding.removeJumpsToNext(f));
        assertEquals(1, b1.instrs().size());
    }
}
