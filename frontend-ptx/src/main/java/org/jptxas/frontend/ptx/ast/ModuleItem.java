package org.jptxas.frontend.ptx.ast;

/** Something written at module scope. */
public sealed interface ModuleItem extends Node permits VersionDirective, TargetDirective, AddressSizeDirective,
        FileDirective, SectionDirective, PragmaDirective, AliasDirective, VariableDecl, FunctionDecl {
}
