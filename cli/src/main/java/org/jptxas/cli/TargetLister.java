package org.jptxas.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import org.jptxas.spi.Backend;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TargetDescription;
import org.jptxas.ori.target.Target;

/**
 * Prints {@code --list-targets}: each target the installed backends describe, whether code generation is there, and
 * the backend and jar that serve it. A target two backends claim is listed once per backend (selecting it is an
 * error).
 */
final class TargetLister {
    private final PrintWriter out;

    TargetLister(PrintWriter out) {
        this.out = out;
    }

    void list(BackendRegistry registry, Target defaultTarget) {
        out.printf("%-10s %-8s %-10s %-16s %s%n", "TARGET", "CODEGEN", "BACKEND", "MODULE", "JAR");
        for (Map.Entry<Target, List<Backend>> e : registry.targets().entrySet()) {
            for (Backend b : e.getValue()) {
                boolean codegen = b.description(e.getKey()).map(TargetDescription::codeGeneration).orElse(false);
                out.printf("%-10s %-8s %-10s %-16s %s%s%n", e.getKey().name(), codegen ? "yes" : "no", b.id(),
                        "backend-" + b.id(), BackendRegistry.origin(b),
                        e.getKey().equals(defaultTarget) ? "  (default)" : "");
            }
        }
        if (registry.targets().isEmpty()) {
            out.println("No backends are installed.");
        }
    }
}
