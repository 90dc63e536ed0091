package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A special (system) register read by S2R/CS2R, named as nvdisasm prints it, e.g. {@code SR_TID.X}; or a dependency
 * scoreboard {@code SB0}..{@code SB5} that {@code DEPBAR.LE SBk, n} names (cp.async.wait_group); or the geometry
 * keyword of a texture instruction ({@code 2D}, {@code ARRAY_2D}, {@code CUBE}: an operand nvdisasm prints by name),
 * or the query of a {@code TXQ} ({@code TEX_HEADER_DIMENSION}, likewise printed by name).
 */
public record SpecialReg(String name) implements Operand {
    public SpecialReg {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith("SR") && !name.matches("SB[0-5]") && !isGeometry(name) && !isTextureQuery(name)) {
            throw new IllegalArgumentException("special registers are named SR_* (or SB0..SB5): " + name);
        }
    }

    /** A texture geometry keyword: {@code 1D}, {@code 2D}, {@code 3D}, {@code CUBE}, {@code ARRAY_1D}, ... */
    public static boolean isGeometry(String name) {
        return name.matches("(ARRAY_)?([123]D|CUBE)");
    }

    /** A texture query keyword of {@code TXQ}: {@code TEX_HEADER_DIMENSION}, {@code TEX_SAMPLER_...}, ... */
    public static boolean isTextureQuery(String name) {
        return name.matches("TEX_(HEADER|SAMPLER)_[A-Z_]+");
    }

    @Override
    public String toString() {
        return name;
    }
}
