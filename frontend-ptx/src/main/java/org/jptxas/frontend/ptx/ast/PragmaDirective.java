package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code .pragma "nounroll";} with its strings, unquoted and unescaped. */
public record PragmaDirective(SourcePos pos, List<String> values) implements ModuleItem, Statement {
    public PragmaDirective {
        values = List.copyOf(values);
    }
}
