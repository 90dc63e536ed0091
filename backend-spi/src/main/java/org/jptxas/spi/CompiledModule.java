package org.jptxas.spi;

import java.util.List;
import java.util.Objects;
import org.jptxas.ori.diag.Diagnostic;

/**
 * A backend's output: the cubin bytes, what it has to report (warnings), the SASS text it generated
 * ({@code --out-sass}; empty when the backend does not say) and the {@code -v} resource report (the lines ptxas
 * prints, each ending in a newline; empty unless asked for).
 */
public record CompiledModule(byte[] cubin, List<Diagnostic> messages, String sass, String resourceReport) {
    public CompiledModule {
        Objects.requireNonNull(cubin, "cubin");
        cubin = cubin.clone();
        messages = List.copyOf(messages);
        Objects.requireNonNull(sass, "sass");
        Objects.requireNonNull(resourceReport, "resourceReport");
    }

    public CompiledModule(byte[] cubin, List<Diagnostic> messages) {
        this(cubin, messages, "", "");
    }

    @Override
    public byte[] cubin() {
        return cubin.clone();
    }
}
