package org.jptxas.backend.sm50;

import com.google.auto.service.AutoService;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.scheduler.codegen.ListScheduledPipeline;
import org.jptxas.spi.Backend;
import org.jptxas.spi.TargetDescription;

/**
 * The targets of {@code backend.json} beside this class. Only the Volta targets (sm_70, sm_72) have a codegen block:
 * they share Turing's 128-bit words and control bits, so they take the list-scheduled pipeline; the Maxwell and
 * Pascal targets are listed and refused by name (their 64-bit words with scheduling words are not written yet).
 */
@AutoService(Backend.class)
public final class Sm50Backend extends FamilyBackend {
    @Override
    protected CodegenPipeline pipeline(TargetDescription description) {
        return ListScheduledPipeline.of(description);
    }
}
