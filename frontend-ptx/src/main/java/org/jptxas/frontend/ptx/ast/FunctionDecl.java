package org.jptxas.frontend.ptx.ast;

import java.util.List;

/**
 * A kernel ({@code .entry}) or device function ({@code .func}), with or without a body.
 *
 * @param attributes {@code .attribute(...)} items
 * @param returns return parameters (only for {@code .func})
 * @param tuning performance-tuning and ABI directives after the parameter list, {@code .noreturn} included
 * @param body the body, or {@code null} for a declaration ending in {@code ;}
 */
public record FunctionDecl(SourcePos pos, Linkage linkage, Kind kind, List<Attribute> attributes,
        List<VariableDecl> returns, String name, List<VariableDecl> params, List<TuningDirective> tuning, Block body)
        implements ModuleItem {
    public FunctionDecl {
        attributes = List.copyOf(attributes);
        returns = List.copyOf(returns);
        params = List.copyOf(params);
        tuning = List.copyOf(tuning);
    }

    public enum Kind {
        ENTRY(".entry"), FUNC(".func");

        private final String directive;

        Kind(String directive) {
            this.directive = directive;
        }

        public String directive() {
            return directive;
        }
    }

    public boolean isEntry() {
        return kind == Kind.ENTRY;
    }

    public boolean isDefinition() {
        return body != null;
    }

    public boolean isNoReturn() {
        return tuning.stream().anyMatch(t -> t.kind() == TuningDirective.Kind.NORETURN);
    }

    /** {@code .attribute(.unified(0x1, 0x2))}: a name without the dot and its arguments. */
    public record Attribute(SourcePos pos, String name, List<Expr> arguments) implements Node {
        public Attribute {
            arguments = List.copyOf(arguments);
        }
    }
}
