package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;
import org.jptxas.ori.target.Target;

/**
 * A whole compilation unit in Ori form, as the front end hands it to a backend.
 *
 * @param sourceName the input file name, for diagnostics
 * @param globals    module-scope global and constant variables
 */
public record OriModule(String sourceName, Target target, List<OriFunction> functions, List<GlobalVar> globals) {
    public OriModule {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(target, "target");
        functions = List.copyOf(functions);
        globals = List.copyOf(globals);
    }

    public OriModule(String sourceName, Target target, List<OriFunction> functions) {
        this(sourceName, target, functions, List.of());
    }
}
