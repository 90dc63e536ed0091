package org.jptxas.backend.sm50;

import com.google.auto.service.AutoService;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.FamilyBackend;

/** Maxwell, Pascal and Volta (sm_50 ... sm_72), MercExpand scheduling */
@AutoService(Backend.class)
public final class Sm50Backend extends FamilyBackend {
    public Sm50Backend() {
        super("sm50", "Maxwell, Pascal and Volta (sm_50 ... sm_72), MercExpand scheduling");
    }
}
