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

    // Written out for speed, as Reg's are (the hash is the generated one's).
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Src s && neg == s.neg && abs == s.abs && not == s.not && value.equals(s.value);
    }

    @Override
    public int hashCode() {
        return ((value.hashCode() * 31 + Boolean.hashCode(neg)) * 31 + Boolean.hashCode(abs)) * 31
                + Boolean.hashCode(not);
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
