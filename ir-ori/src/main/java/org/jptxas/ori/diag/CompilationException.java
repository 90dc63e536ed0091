package org.jptxas.ori.diag;

import java.util.List;

/**
 * Compilation stopped because of errors in the input or because the input needs something jptxas does not support
 * yet. Carries every diagnostic found, not just the first.
 */
public class CompilationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<Diagnostic> diagnostics;

    public CompilationException(List<Diagnostic> diagnostics) {
        super(diagnostics.isEmpty() ? "compilation failed" : diagnostics.get(0).message());
        this.diagnostics = List.copyOf(diagnostics);
    }

    public CompilationException(Diagnostic diagnostic) {
        this(List.of(diagnostic));
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }
}
