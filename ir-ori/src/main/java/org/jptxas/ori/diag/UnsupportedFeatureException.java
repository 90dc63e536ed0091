package org.jptxas.ori.diag;

/** Valid input that jptxas cannot compile yet; the message names the feature. */
public final class UnsupportedFeatureException extends CompilationException {
    private static final long serialVersionUID = 1L;

    public UnsupportedFeatureException(String file, int line, String message) {
        super(file == null ? Diagnostic.fatal(message) : Diagnostic.error(file, line, message));
    }
}
