package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A special (system) register read by S2R/CS2R, named as nvdisasm prints it, e.g. {@code SR_TID.X}; or a dependency
 * scoreboard {@code SB0}..{@code SB5} that {@code DEPBAR.LE SBk, n} names (cp.async.wait_group).
 */
public record SpecialReg(String name) implements Operand {
    public SpecialReg {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith("SR") && !name.matches("SB[0-5]")) {
            throw new IllegalArgumentException("special registers are named SR_* (or SB0..SB5): " + name);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
