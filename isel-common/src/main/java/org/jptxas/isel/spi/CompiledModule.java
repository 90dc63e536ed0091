package org.jptxas.isel.spi;

import java.util.List;
import java.util.Objects;
import org.jptxas.ori.diag.Diagnostic;

/**
 * A backend's output: the cubin bytes and what it has to report (warnings, and with {@code -v} the resource report).
 */
public record CompiledModule(byte[] cubin, List<Diagnostic> messages) {
    public CompiledModule {
        Objects.requireNonNull(cubin, "cubin");
        cubin = cubin.clone();
        messages = List.copyOf(messages);
    }

    @Override
    public byte[] cubin() {
        return cubin.clone();
    }
}
