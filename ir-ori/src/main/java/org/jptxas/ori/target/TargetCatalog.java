package org.jptxas.ori.target;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jptxas.tables.TableLoader;

/** The targets jptxas knows of ({@code tables/targets.json}) and ptxas's default target. Immutable. */
public final class TargetCatalog {
    public static final String TABLE = "targets.json";

    /** JSON shape of {@code targets.json}. */
    public record Data(String defaultTarget, String note, List<TargetInfo> targets) {
        public Data {
            Objects.requireNonNull(defaultTarget, "defaultTarget");
            targets = List.copyOf(targets);
            if (targets.stream().noneMatch(t -> t.name().equals(defaultTarget))) {
                throw new IllegalArgumentException("default target " + defaultTarget + " is not listed");
            }
            if (targets.stream().map(TargetInfo::name).distinct().count() != targets.size()) {
                throw new IllegalArgumentException("a target is listed twice");
            }
        }
    }

    private final Target defaultTarget;
    private final Map<String, TargetInfo> byName = new LinkedHashMap<>();

    private TargetCatalog(Data data) {
        this.defaultTarget = Target.of(data.defaultTarget());
        data.targets().forEach(t -> byName.put(t.name(), t));
    }

    private static final class Holder {
        static final TargetCatalog INSTANCE = new TargetCatalog(TableLoader.load(TABLE, Data.class));
    }

    public static TargetCatalog get() {
        return Holder.INSTANCE;
    }

    /** ptxas's default when no {@code -arch} is given: sm_75. */
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
