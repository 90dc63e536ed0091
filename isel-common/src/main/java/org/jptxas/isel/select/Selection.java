package org.jptxas.isel.select;

import java.util.List;
import org.jptxas.isel.codegen.CodegenPipeline;

/** How a backend plugs instruction selection into the shared code generator. */
public final class Selection {
    private Selection() {}

    /**
     * {@code pipeline} with the selector's legalizer appended to its legalization passes (so it runs last, just
     * before register allocation) and the selecting emitter.
     */
    public static CodegenPipeline install(CodegenPipeline pipeline, InstructionSelector selector) {
        List<org.jptxas.isel.codegen.OriPass> legal = new java.util.ArrayList<>(pipeline.legalization());
        legal.add(new Legalizer(selector));
        return pipeline.withLegalization(legal).withEmitter(new SelectingSassEmitter(selector));
    }
}
