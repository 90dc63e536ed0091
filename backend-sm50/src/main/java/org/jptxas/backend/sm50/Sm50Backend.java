package org.jptxas.backend.sm50;

import com.google.auto.service.AutoService;
import org.jptxas.spi.Backend;
import org.jptxas.isel.codegen.FamilyBackend;

/** The targets of {@code backend.json} beside this class: listed, refused by name (no code generation yet). */
@AutoService(Backend.class)
public final class Sm50Backend extends FamilyBackend {
}
