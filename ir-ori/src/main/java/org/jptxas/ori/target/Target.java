package org.jptxas.ori.target;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real GPU target such as {@code sm_90a}: the SM version and an optional feature suffix
 * ({@code a} = architecture-specific, {@code f} = family-portable), as ptxas names them.
 */
public record Target(int sm, String suffix) implements Comparable<Target> {
    private static final Pattern NAME = Pattern.compile("sm_([0-9]{2,3})([a-z]?)");

    public Target {
        Objects.requireNonNull(suffix, "suffix");
        if (sm <= 0) {
            throw new IllegalArgumentException("SM version must be positive: " + sm);
        }
    }

    /** Parses {@code sm_XY[a|f]}; empty for anything else (virtual {@code compute_} names included). */
    public static Optional<Target> parse(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Target(Integer.parseInt(m.group(1)), m.group(2)));
    }

    /** Parses a target name that is known to be well-formed. */
    public static Target of(String name) {
        return parse(name).orElseThrow(() -> new IllegalArgumentException("not a target name: " + name));
    }

    public String name() {
        return "sm_" + sm + suffix;
    }

    /** Architecture-specific variant ({@code sm_90a}): code for it runs only on that exact chip. */
    public boolean archSpecific() {
        return suffix.equals("a");
    }

    /** Family-portable variant ({@code sm_100f}). */
    public boolean familyPortable() {
        return suffix.equals("f");
    }

    @Override
    public int compareTo(Target o) {
        int c = Integer.compare(sm, o.sm);
        return c != 0 ? c : suffix.compareTo(o.suffix);
    }

    @Override
    public String toString() {
        return name();
    }
}
