package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** A brace-enclosed statement list: a function body or a nested scope. */
public record Block(SourcePos pos, List<Statement> statements, SourcePos end) implements Statement {
    public Block {
        statements = List.copyOf(statements);
    }

    /** A block whose closing brace position is unknown (built by hand): it ends where it starts. */
    public Block(SourcePos pos, List<Statement> statements) {
        this(pos, statements, pos);
    }
}
