package org.jptxas.backend.sm100;

import com.google.auto.service.AutoService;
import org.jptxas.spi.Backend;
import org.jptxas.isel.codegen.FamilyBackend;

/** The targets of {@code backend.json} beside this class: listed, refused by name (no code generation yet). */
@AutoService(Backend.class)
public final class Sm100Backend extends FamilyBackend {
}
