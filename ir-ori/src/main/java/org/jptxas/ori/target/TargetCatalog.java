package org.jptxas.ori.target;


import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The targets a compilation knows of: those the installed backends describe (the front end accepts a
 * {@code .target} only if it is here), and the target to compile for when none is given. Immutable.
 */
public final class TargetCatalog {
    private final Target defaultTarget;
    private final Map<String, TargetInfo> byName = new LinkedHashMap<>();

    public TargetCatalog(Target defaultTarget, List<TargetInfo> targets) {
        this.defaultTarget = Objects.requireNonNull(defaultTarget, "defaultTarget");
        for (TargetInfo t : targets) {
            if (byName.put(t.name(), t) != null) {
                throw new IllegalArgumentException("target " + t.name() + " is listed twice");
            }
        }
    }

    /** The target when no {@code -arch} is given (ptxas's default: sm_75). */
    public Target defaultTarget() {
        return defaultTarget;
    }

    public Optional<TargetInfo> info(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public List<TargetInfo> all() {
        return List.copyOf(byName.values());
    }
}
