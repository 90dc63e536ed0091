package org.jptxas.ori.target;

import java.util.Objects;

/**
 * What jptxas knows about one target ({@code targets.json}).
 *
 * @param family the backend family that serves it (e.g. {@code sm89-90}); the backend module is {@code backend-<family>}
 * @param ptxas13 whether ptxas 13.0 accepts the target
 * @param ptxas125 whether ptxas 12.5 accepts the target
 */
public record TargetInfo(String name, int sm, String suffix, String family, String architecture, boolean ptxas13,
        boolean ptxas125) {
    public TargetInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(suffix, "suffix");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(architecture, "architecture");
        Target t = Target.parse(name).orElseThrow(() -> new IllegalArgumentException("bad target name '" + name + "'"));
        if (t.sm() != sm || !t.suffix().equals(suffix)) {
            throw new IllegalArgumentException("target " + name + ": sm/suffix fields disagree with the name");
        }
    }

    public Target target() {
        return new Target(sm, suffix);
    }
}
