package org.jptxas.backend.sm100;

import com.google.auto.service.AutoService;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;

/** Blackwell (sm_100 ... sm_121) */
@AutoService(Backend.class)
public final class Sm100Backend extends FamilyBackend {
    public Sm100Backend() {
        super("sm100", "Blackwell (sm_100 ... sm_121)");
    }
}
