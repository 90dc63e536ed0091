package org.jptxas.backend.sm80;

import com.google.auto.service.AutoService;
import java.util.Optional;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.codegen.LatencyControlPass;

/** Ampere (sm_80, sm_86, sm_87, sm_88) */
@AutoService(Backend.class)
public final class Sm80Backend extends FamilyBackend {
    public Sm80Backend() {
        super("sm80", "Ampere (sm_80, sm_86, sm_87, sm_88)");
    }

    @Override
    public Optional<CodegenPipeline> pipeline(Target target) {
        return Optional.of(Sm80Isel.install(CodegenPipeline.standard().withControl(LatencyControlPass.forTarget(target)), target));
    }
}
