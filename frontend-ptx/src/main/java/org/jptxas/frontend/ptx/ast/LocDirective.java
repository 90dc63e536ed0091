package org.jptxas.frontend.ptx.ast;

/**
 * {@code .loc file line column [, function_name label [+ offset]] [, inlined_at file line column]}.
 *
 * @param functionName the label of the function name string, or {@code null}
 * @param inlinedAt where this code was inlined, or {@code null}
 */
public record LocDirective(SourcePos pos, long file, long line, long column, Expr functionName, InlinedAt inlinedAt)
        implements Statement {

    /** The {@code inlined_at file line column} part. */
    public record InlinedAt(long file, long line, long column) {
    }
}
