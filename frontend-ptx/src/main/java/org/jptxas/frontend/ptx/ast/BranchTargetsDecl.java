package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code ts: .branchtargets L1, L2;} */
public record BranchTargetsDecl(SourcePos pos, String label, List<String> targets) implements Statement {
    public BranchTargetsDecl {
        targets = List.copyOf(targets);
    }
}
