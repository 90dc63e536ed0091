package org.jptxas.scheduler.codegen;

import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.select.InstructionSelector;
import org.jptxas.isel.select.Selection;
import org.jptxas.spi.TargetDescription;

/**
 * The code-generation stages of a target scheduled by the list scheduler (sm_70 on): the standard optimizer, the
 * target's matchers and legalizer, and the latency-model control pass, all built from its description.
 */
public final class ListScheduledPipeline {
    private ListScheduledPipeline() {}

    public static CodegenPipeline of(TargetDescription description) {
        CodegenPipeline p = CodegenPipeline.standard(description).withControl(LatencyControlPass.of(description));
        return Selection.install(p, InstructionSelector.of(description));
    }
}
