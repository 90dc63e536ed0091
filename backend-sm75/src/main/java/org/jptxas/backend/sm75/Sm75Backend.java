package org.jptxas.backend.sm75;

import com.google.auto.service.AutoService;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.spi.Backend;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.spi.TargetDescription;
import org.jptxas.scheduler.codegen.ListScheduledPipeline;

/** The targets of {@code backend.json} beside this class, list-scheduled. */
@AutoService(Backend.class)
public final class Sm75Backend extends FamilyBackend {
    @Override
    protected CodegenPipeline pipeline(TargetDescription description) {
        return ListScheduledPipeline.of(description);
    }
}
