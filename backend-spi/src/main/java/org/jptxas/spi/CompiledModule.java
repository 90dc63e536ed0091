package org.jptxas.spi;

import java.util.List;
import java.util.Objects;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;

/**
 * A backend's output: the cubin bytes, what it has to report (warnings), the SASS text it generated
 * ({@code --out-sass}; empty when the backend does not say) and the {@code -v} resource report (the lines ptxas
 * prints, each ending in a newline; empty unless asked for) and the same resources as data, function by function in
 * the report's order ({@code usage}; empty when the backend does not say).
 */
public record CompiledModule(byte[] cubin, List<Diagnostic> messages, String sass, String resourceReport,
                             List<ResourceReport.FunctionUsage> usage) {
    public CompiledModule {
        Objects.requireNonNull(cubin, "cubin");
        cubin = cubin.clone();
        messages = List.copyOf(messages);
        Objects.requireNonNull(sass, "sass");
        Objects.requireNonNull(resourceReport, "resourceReport");
        usage = List.copyOf(usage);
    }

    public CompiledModule(byte[] cubin, List<Diagnostic> messages, String sass, String resourceReport) {
        this(cubin, messages, sass, resourceReport, List.of());
    }

    public CompiledModule(byte[] cubin, List<Diagnostic> messages) {
        this(cubin, messages, "", "");
    }

    @Override
    public byte[] cubin() {
        return cubin.clone();
    }
}
