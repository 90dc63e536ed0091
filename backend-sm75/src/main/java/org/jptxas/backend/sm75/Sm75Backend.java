package org.jptxas.backend.sm75;

import com.google.auto.service.AutoService;
import java.util.Optional;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.codegen.LatencyControlPass;

/** Turing (sm_75) */
@AutoService(Backend.class)
public final class Sm75Backend extends FamilyBackend {
    public Sm75Backend() {
        super("sm75", "Turing (sm_75)");
    }

    @Override
    public Optional<CodegenPipeline> pipeline(Target target) {
        return Optional.of(Sm75Isel.install(CodegenPipeline.standard().withControl(LatencyControlPass.forTarget(target)), target));
    }
}
