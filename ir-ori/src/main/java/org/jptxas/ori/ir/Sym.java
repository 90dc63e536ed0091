package org.jptxas.ori.ir;

import java.util.Objects;

/** A module-level symbol (a called function, a global or shared variable), resolved by relocation. */
public record Sym(String name, Kind kind) implements Operand {
    public enum Kind { FUNCTION, GLOBAL, SHARED, CONSTANT, LOCAL }

    public Sym {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
        return "@" + name;
    }
}
