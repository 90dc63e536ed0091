package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A source operand with its modifiers: {@code neg} and {@code abs} for arithmetic sources, {@code not} for
 * predicate and bitwise sources.
 */
public record Src(Operand value, boolean neg, boolean abs, boolean not) {
    public Src {
        Objects.requireNonNull(value, "value");
    }

    public static Src of(Operand value) {
        return new Src(value, false, false, false);
    }

    public Src negated() {
        return new Src(value, !neg, abs, not);
    }

    public Src inverted() {
        return new Src(value, neg, abs, !not);
    }

    public boolean hasModifiers() {
        return neg || abs || not;
    }

    @Override
    public String toString() {
        String v = value.toString();
        if (abs) {
            v = "|" + v + "|";
        }
        if (neg) {
            v = "-" + v;
        }
        if (not) {
            v = "!" + v;
        }
        return v;
    }
}
