package org.jptxas.frontend.ptx.ast;

import java.util.List;

/**
 * One declared name: {@code %r<100>}, {@code buf[16][4]}, {@code x = 3}.
 *
 * @param parameterizedCount for {@code %r<100>} the count 100 (names {@code %r0..%r99}); -1 otherwise
 * @param dimensions array dimensions in order; -1 for an unsized {@code []}
 * @param initializer the initializer, or {@code null}
 */
public record Declarator(SourcePos pos, String name, long parameterizedCount, List<Long> dimensions,
        Initializer initializer) implements Node {
    public Declarator {
        dimensions = List.copyOf(dimensions);
    }

    public boolean isParameterized() {
        return parameterizedCount >= 0;
    }

    public boolean isArray() {
        return !dimensions.isEmpty();
    }
}
