package org.jptxas.backend.sm89_90;

import com.google.auto.service.AutoService;
import java.util.Optional;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.codegen.LatencyControlPass;

/** Ada and Hopper (sm_89, sm_90, sm_90a) */
@AutoService(Backend.class)
public final class Sm89To90Backend extends FamilyBackend {
    public Sm89To90Backend() {
        super("sm89-90", "Ada and Hopper (sm_89, sm_90, sm_90a)");
    }

    @Override
    public Optional<CodegenPipeline> pipeline(Target target) {
        return Optional.of(Sm89To90Isel.install(CodegenPipeline.standard().withControl(LatencyControlPass.forTarget(target)), target));
    }
}
