package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A kernel ({@code .entry}) or device function ({@code .func}) in Ori form.
 *
 * @param line the source line of its declaration, for diagnostics
 */
public record OriFunction(String name, boolean entry, int line) {
    public OriFunction {
        Objects.requireNonNull(name, "name");
    }
}
