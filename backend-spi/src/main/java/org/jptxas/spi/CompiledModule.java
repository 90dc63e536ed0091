package org.jptxas.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;

/**
 * A backend's output: the cubin bytes, what it has to report (warnings), the SASS text it generated
 * ({@code --out-sass}; empty when the backend does not say) and the {@code -v} resource report (the lines ptxas
 * prints, each ending in a newline; empty unless asked for) and the same resources as data, function by function in
 * the report's order ({@code usage}; empty when the backend does not say), with the module's own ({@code moduleUsage};
 * empty when the backend does not say): from these the front end prints the report under its own name
 * ({@link ResourceReport#format(String, String, ResourceReport.ModuleUsage, List)}).
 */
public record CompiledModule(byte[] cubin, List<Diagnostic> messages, String sass, String resourceReport,
                             List<ResourceReport.FunctionUsage> usage, Optional<ResourceReport.ModuleUsage> moduleUsage) {
    public CompiledModule {
        Objects.requireNonNull(cubin, "cubin");
        cubin = cubin.clone();
        messages = List.copyOf(messages);
        Objects.requireNonNull(sass, "sass");
        Objects.requireNonNull(resourceReport, "resourceReport");
        usage = List.copyOf(usage);
        Objects.requireNonNull(moduleUsage, "moduleUsage");
    }

    public CompiledModule(byte[] cubin, List<Diagnostic> messages, String sass, String resourceReport,
                          List<ResourceReport.FunctionUsage> usage) {
        this(cubin, messages, sass, resourceReport, usage, Optional.empty());
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
