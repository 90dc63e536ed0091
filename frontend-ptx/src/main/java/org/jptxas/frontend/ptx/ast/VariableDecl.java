package org.jptxas.frontend.ptx.ast;

import java.util.List;

/**
 * A variable (or parameter) declaration: {@code .visible .global .align 8 .v2 .f32 x[4] = {...}, y;}.
 *
 * @param attributes {@code .attribute(.managed)} names, without dots
 * @param align the {@code .align} value in bytes, 0 when not written
 * @param vectorLength 2, 4 or 8 for {@code .v2}, {@code .v4}, {@code .v8}; 0 for scalars
 * @param pointer the {@code .ptr} qualifier of a kernel parameter, or {@code null}
 */
public record VariableDecl(SourcePos pos, Linkage linkage, StateSpace space, List<String> attributes, long align,
        int vectorLength, PtxType type, PointerInfo pointer, List<Declarator> declarators)
        implements ModuleItem, Statement {
    public VariableDecl {
        attributes = List.copyOf(attributes);
        declarators = List.copyOf(declarators);
    }

    /** {@code .ptr [.global|.shared|.const|.local] [.align N]} on a kernel parameter. */
    public record PointerInfo(StateSpace space, long align) {
    }
}
