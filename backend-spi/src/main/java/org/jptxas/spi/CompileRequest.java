package org.jptxas.spi;

import java.util.Objects;
import org.jptxas.spi.IrObserver;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;

/**
 * What a backend is asked to compile: a module, the exact target, the options, and who watches the Ori between
 * passes ({@code --dump-ir}, {@code --verify-ir}). A module whose {@code .target} lists {@code debug} is compiled as
 * with {@code -g}, as ptxas 13 does (its code for it is -g's), whoever builds the options.
 */
public record CompileRequest(OriModule module, Target target, CompileOptions options, IrObserver observer) {
    public CompileRequest {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(observer, "observer");
        if (module.declarations().targetDebug()) {
            options = options.withDeviceDebug();
        }
    }

    public CompileRequest(OriModule module, Target target, CompileOptions options) {
        this(module, target, options, IrObserver.NONE);
    }
}
