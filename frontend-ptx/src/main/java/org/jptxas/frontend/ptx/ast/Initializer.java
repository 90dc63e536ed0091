package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** A variable initializer. */
public sealed interface Initializer extends Node {
    /** A constant expression, an address ({@code x+4}) or {@code generic(x)}. */
    record Value(SourcePos pos, Expr value) implements Initializer {
    }

    /** A braced list of initializers. */
    record Aggregate(SourcePos pos, List<Initializer> elements) implements Initializer {
        public Aggregate {
            elements = List.copyOf(elements);
        }
    }

    /** {@code addr_mode_0 = clamp_to_edge} inside a sampler or texture initializer. */
    record Field(SourcePos pos, String field, Expr value) implements Initializer {
    }
}
