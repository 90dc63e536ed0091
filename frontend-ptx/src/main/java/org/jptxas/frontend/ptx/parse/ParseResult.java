package org.jptxas.frontend.ptx.parse;

import java.util.List;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.ori.diag.Diagnostic;

/**
 * The outcome of parsing one PTX text: the module (as much as could be parsed) and the diagnostics, in source order
 * of discovery.
 */
public record ParseResult(PtxModule module, List<Diagnostic> diagnostics) {
    public ParseResult {
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean hasErrors() {
        return diagnostics.stream().anyMatch(Diagnostic::isError);
    }
}
