package org.jptxas.ori.ir;

import java.util.Objects;

/** The predicate that guards an instruction ({@code @P0}, {@code @!UP1}). */
public record Guard(Reg predicate, boolean negated) {
    /** The guard of an unconditional instruction: {@code @PT}. */
    public static final Guard ALWAYS = new Guard(Reg.PT, false);

    public Guard {
        Objects.requireNonNull(predicate, "predicate");
        if (!predicate.file().isPredicate()) {
            throw new IllegalArgumentException("guard must be a predicate: " + predicate);
        }
    }

    public boolean isAlways() {
        return predicate.isZero() && !negated;
    }

    @Override
    public String toString() {
        return "@" + (negated ? "!" : "") + predicate;
    }
}
