package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A kernel ({@code .entry}) or device function ({@code .func}) in Ori form.
 *
 * @param line  the source line of its declaration, for diagnostics
 * @param body  its code; empty until the front end lowers the function
 * @param attrs parameters, memory and launch bounds
 */
public record OriFunction(String name, boolean entry, int line, FunctionBody body, FunctionAttrs attrs) {
    public OriFunction {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(attrs, "attrs");
    }

    public OriFunction(String name, boolean entry, int line, FunctionBody body) {
        this(name, entry, line, body, FunctionAttrs.NONE);
    }

    /** A function whose body is not lowered (yet). */
    public OriFunction(String name, boolean entry, int line) {
        this(name, entry, line, new FunctionBody());
    }
}
