package org.jptxas.ori.ir;

import java.util.Objects;

/** A special (system) register read by S2R/CS2R, named as nvdisasm prints it, e.g. {@code SR_TID.X}. */
public record SpecialReg(String name) implements Operand {
    public SpecialReg {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith("SR")) {
            throw new IllegalArgumentException("special registers are named SR_*: " + name);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
