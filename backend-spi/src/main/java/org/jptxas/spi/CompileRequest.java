package org.jptxas.spi;

import java.util.Objects;
import org.jptxas.spi.IrObserver;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;

/**
 * What a backend is asked to compile: a module, the exact target, the options, and who watches the Ori between
 * passes ({@code --dump-ir}, {@code --verify-ir}).
 */
public record CompileRequest(OriModule module, Target target, CompileOptions options, IrObserver observer) {
    public CompileRequest {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(observer, "observer");
    }

    public CompileRequest(OriModule module, Target target, CompileOptions options) {
        this(module, target, options, IrObserver.NONE);
    }
}
