package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code proto: .callprototype (.param .b32 _) _ (.param .b64 _) .noreturn;} */
public record CallPrototypeDecl(SourcePos pos, String label, List<VariableDecl> returns, List<VariableDecl> params,
        List<TuningDirective> tuning) implements Statement {
    public CallPrototypeDecl {
        returns = List.copyOf(returns);
        params = List.copyOf(params);
        tuning = List.copyOf(tuning);
    }
}
