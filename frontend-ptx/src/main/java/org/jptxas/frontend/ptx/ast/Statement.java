package org.jptxas.frontend.ptx.ast;

/** Something written inside a function body. */
public sealed interface Statement extends Node permits Instruction, LabelDef, VariableDecl, Block, PragmaDirective,
        LocDirective, CallPrototypeDecl, CallTargetsDecl, BranchTargetsDecl {
}
