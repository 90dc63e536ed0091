package org.jptxas.spi;

import java.util.Objects;

/**
 * One target of a backend's {@code backend.json}, as read: the backend's {@code defaults} with the target's own
 * entries laid over them, every field required ({@code codegen} is separate: see {@link CodegenSpec}).
 *
 * @param ptxas13  whether ptxas 13.0 accepts the target
 * @param ptxas125 whether ptxas 12.5 accepts the target
 * @param cubin    the name of the target's cubin flavour
 */
public record TargetSpec(String name, String architecture, boolean ptxas13, boolean ptxas125, String cubin) {
    public TargetSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(cubin, "cubin");
    }
}
