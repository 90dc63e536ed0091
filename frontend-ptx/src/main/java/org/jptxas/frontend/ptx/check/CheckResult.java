package org.jptxas.frontend.ptx.check;

import java.util.List;
import org.jptxas.ori.diag.Diagnostic;

/** The checker's verdict: the resolved module and every diagnostic found (errors and warnings). */
public record CheckResult(ResolvedModule resolved, List<Diagnostic> diagnostics) {
    public CheckResult {
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean hasErrors() {
        return diagnostics.stream().anyMatch(Diagnostic::isError);
    }
}
