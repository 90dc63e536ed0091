package org.jptxas.frontend.ptx.ast;

/** {@code @%p} or {@code @!%p} in front of an instruction. */
public record Guard(SourcePos pos, String predicate, boolean negated) implements Node {
}
