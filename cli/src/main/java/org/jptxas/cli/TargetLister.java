package org.jptxas.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jptxas.isel.spi.Backend;
import org.jptxas.isel.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;

/** Prints {@code --list-targets}: each served target with its backend and the jar it came from. */
final class TargetLister {
    private final PrintWriter out;

    TargetLister(PrintWriter out) {
        this.out = out;
    }

    void list(BackendRegistry registry) {
        Target def = TargetCatalog.get().defaultTarget();
        out.printf("%-10s %-10s %-16s %s%n", "TARGET", "BACKEND", "MODULE", "JAR");
        for (Map.Entry<Target, List<Backend>> e : registry.targets().entrySet()) {
            for (Backend b : e.getValue()) {
                out.printf("%-10s %-10s %-16s %s%s%n", e.getKey().name(), b.id(), "backend-" + b.id(),
                        BackendRegistry.origin(b), e.getKey().equals(def) ? "  (default)" : "");
            }
        }
        List<String> missing = TargetCatalog.get().all().stream()
                .filter(t -> !registry.targets().containsKey(t.target()))
                .map(t -> t.name())
                .collect(Collectors.toList());
        if (!missing.isEmpty()) {
            out.println("Known targets without an installed backend: " + String.join(", ", missing));
        }
    }
}
