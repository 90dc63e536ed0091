package org.jptxas.frontend.ptx.parse;

/** Stops parsing at once after a fatal problem (unsupported version, nesting too deep); already reported. */
final class AbortParse extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AbortParse() {
        super(null, null, false, false);
    }
}
