package org.jptxas.isel.spi;

import java.util.Objects;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;

/** What a backend is asked to compile: a module, the exact target, and the options. */
public record CompileRequest(OriModule module, Target target, CompileOptions options) {
    public CompileRequest {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
    }
}
