package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** A brace-enclosed statement list: a function body or a nested scope. */
public record Block(SourcePos pos, List<Statement> statements) implements Statement {
    public Block {
        statements = List.copyOf(statements);
    }
}
