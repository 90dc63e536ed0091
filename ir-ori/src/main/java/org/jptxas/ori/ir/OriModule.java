package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;
import org.jptxas.ori.target.Target;

/**
 * A whole compilation unit in Ori form, as the front end hands it to a backend.
 *
 * @param sourceName the input file name, for diagnostics
 */
public record OriModule(String sourceName, Target target, List<OriFunction> functions) {
    public OriModule {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(target, "target");
        functions = List.copyOf(functions);
    }
}
