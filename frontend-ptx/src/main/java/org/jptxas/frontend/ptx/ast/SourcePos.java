package org.jptxas.frontend.ptx.ast;

/** A 1-based line and column in the PTX source text. */
public record SourcePos(int line, int column) {
    public static final SourcePos NONE = new SourcePos(0, 0);

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
