package org.jptxas.backend.sm100;

import com.google.auto.service.AutoService;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.scheduler.codegen.ListScheduledPipeline;
import org.jptxas.spi.Backend;
import org.jptxas.spi.TargetDescription;

/** The targets of {@code backend.json} beside this class, list-scheduled like Hopper. */
@AutoService(Backend.class)
public final class Sm100Backend extends FamilyBackend {
    @Override
    protected CodegenPipeline pipeline(TargetDescription description) {
        return ListScheduledPipeline.of(description);
    }
}
