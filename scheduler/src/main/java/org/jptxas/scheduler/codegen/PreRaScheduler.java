package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.list.ListScheduler;
import org.jptxas.scheduler.list.SchedOptions;
import org.jptxas.scheduler.model.SimpleInstr;

/**
 * Pre-allocation scheduling: every basic block of the legalised Ori is reordered by the list scheduler in ReduceReg
 * mode (latency first while the block's live GPRs stay under the budget, pressure first above it), as ptxas's first
 * scheduling pass does. The budget is the function's register limit ({@code .maxnreg}, {@code --maxrregcount}, 255)
 * capped at {@link #DEFAULT_BUDGET}, so the allocator is not handed more pressure than ptxas itself would create.
 */
final class PreRaScheduler {
    /** ptxas keeps to about 64 registers unless a limit or the code asks for more; so does this pass. */
    static final int DEFAULT_BUDGET = 64;

    private final OriSchedView view;
    private final ListScheduler scheduler;

    PreRaScheduler(LatencyModel model) {
        this.view = new OriSchedView(model);
        this.scheduler = new ListScheduler(model);
    }

    void run(OriFunction f, int registerLimit) {
        SchedOptions options = SchedOptions.reduceReg(Math.max(8, Math.min(registerLimit, DEFAULT_BUDGET)));
        for (BasicBlock b : f.body().blocks()) {
            List<Instr> instrs = b.instrs();
            if (instrs.size() < 2) {
                continue;
            }
            List<Instr> reordered = new ArrayList<>(instrs.size());
            int pos = 0;
            while (pos < instrs.size()) {
                List<SimpleInstr> run = view.adapt(instrs, pos);
                for (int k : scheduler.schedule(run, options).order()) {
                    reordered.add(instrs.get(pos + k));
                }
                pos += run.size();
            }
            instrs.clear();
            instrs.addAll(reordered);
        }
    }
}
