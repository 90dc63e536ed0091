package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.codegen.OriPass;

/** How a backend plugs instruction selection into the shared code generator. */
public final class Selection {
    private Selection() {}

    /**
     * {@code pipeline} with the selector's legalizer appended to its legalization passes (so it runs last, just
     * before register allocation) and the selecting emitter. (The optimizer could ask the legalizer what encodes
     * guarded, {@code new OptimizerPass(legalizer::legalizes)}, so that if-conversion predicates more than ptxas was
     * seen to guard; with {@link org.jptxas.ori.opt.BlockMerging} after it, the random-program differential found
     * miscompiles, so neither is in the pipeline yet.)
     */
    public static CodegenPipeline install(CodegenPipeline pipeline, InstructionSelector selector) {
        List<OriPass> legal = new ArrayList<>(pipeline.legalization());
        legal.add(new Legalizer(selector));
        return pipeline.withLegalization(legal).withEmitter(new SelectingSassEmitter(selector));
    }
}
