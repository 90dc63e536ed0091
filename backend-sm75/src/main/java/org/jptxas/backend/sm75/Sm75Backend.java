package org.jptxas.backend.sm75;

import com.google.auto.service.AutoService;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;

/** Turing (sm_75) */
@AutoService(Backend.class)
public final class Sm75Backend extends FamilyBackend {
    public Sm75Backend() {
        super("sm75", "Turing (sm_75)");
    }
}
