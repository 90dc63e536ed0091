package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.codegen.OptimizerPass;
import org.jptxas.isel.codegen.OriPass;

/** How a backend plugs instruction selection into the shared code generator. */
public final class Selection {
    private Selection() {}

    /**
     * {@code pipeline} with the selector's legalizer appended to its legalization passes (so it runs last, just
     * before register allocation), the selecting emitter, and the optimizer asking the legalizer what encodes (so
     * if-conversion predicates what the target's tables can encode guarded, not only what ptxas was seen to guard;
     * {@link org.jptxas.ori.opt.BlockMerging} then joins the straight-line blocks it leaves). Taken out once because
     * the larger blocks exposed two older bugs the random-program differential found (the scheduler's IMAD.HI
     * addend, a loop's BSSY above a divergent guard: random/seed-80-imad-hi.ptx, random/seed-145-guarded-loop.ptx);
     * both are fixed.
     */
    public static CodegenPipeline install(CodegenPipeline pipeline, InstructionSelector selector) {
        Legalizer legalizer = new Legalizer(selector);
        List<OriPass> legal = new ArrayList<>(pipeline.legalization());
        legal.add(legalizer);
        List<OriPass> optimizations = new ArrayList<>();
        for (OriPass p : pipeline.optimizations()) {
            optimizations.add(p instanceof OptimizerPass ? new OptimizerPass(legalizer::legalizes) : p);
        }
        return pipeline.withOptimizations(optimizations).withLegalization(legal)
                .withEmitter(new SelectingSassEmitter(selector));
    }
}
