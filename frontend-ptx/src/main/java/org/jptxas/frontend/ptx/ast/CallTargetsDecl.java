package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code tgts: .calltargets f1, f2;} */
public record CallTargetsDecl(SourcePos pos, String label, List<String> targets) implements Statement {
    public CallTargetsDecl {
        targets = List.copyOf(targets);
    }
}
