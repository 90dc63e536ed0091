package org.jptxas.frontend.ptx.ast;

/** {@code $L__BB0_1:} */
public record LabelDef(SourcePos pos, String name) implements Statement {
}
