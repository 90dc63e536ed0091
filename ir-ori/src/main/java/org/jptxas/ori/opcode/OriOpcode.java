package org.jptxas.ori.opcode;

import java.util.Objects;

/**
 * One entry of the Ori opcode table: the index is the runtime opcode number (ptxas stores the same index in its
 * instructions and in its name table), {@code name} the SASS-level mnemonic.
 *
 * @param firstSm the SM generation that introduced the opcode, derived from the generation ranges of the table
 */
public record OriOpcode(int index, String name, OpcodeGroup group, String description, int firstSm) {
    public OriOpcode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(description, "description");
    }

    public boolean isMarker() {
        return group == OpcodeGroup.MARKER;
    }

    /** True when a target of SM version {@code sm} has this opcode. */
    public boolean availableOn(int sm) {
        return sm >= firstSm;
    }
}
