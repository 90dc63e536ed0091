package org.jptxas.tables.isel;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A set of instruction-selection matchers ({@code isel/common.json}, {@code isel/sm75.json}, ...): {@code scope}
 * names the backend family the set belongs to ({@code common}, {@code sm75}, {@code sm80}, {@code sm89-90}).
 */
public record MatcherTable(String scope, String description, List<MatcherData> matchers) {
    public MatcherTable {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(description, "description");
        matchers = List.copyOf(matchers);
        Set<String> names = new HashSet<>();
        for (MatcherData m : matchers) {
            if (!names.add(m.name())) {
                throw new IllegalArgumentException("matcher name " + m.name() + " given twice");
            }
        }
    }

    /** Loads the set at {@code path} in {@code source} with the strict loader. */
    public static MatcherTable load(org.jptxas.tables.TableSource source, String path) {
        return source.load(path, MatcherTable.class);
    }

}
