package org.jptxas.frontend.ptx.ast;

/** {@code .alias alias, aliasee;} */
public record AliasDirective(SourcePos pos, String alias, String aliasee) implements ModuleItem {
}
