package org.jptxas.ori.ir;

import java.util.Objects;

/**
 * A module-level symbol (a called function, a global variable), resolved by relocation. {@code part} says which
 * 32 bits of the address the operand takes ({@code 32@lo(sym)}, {@code 32@hi(sym)}) or the whole target of a call;
 * {@code addend} is added to the symbol's address.
 */
public record Sym(String name, Kind kind, Part part, long addend) implements Operand {
    /** {@code TEXTURE}: a bound texture reference, standing for its header slot until the front end places it. */
    public enum Kind { FUNCTION, GLOBAL, SHARED, CONSTANT, LOCAL, TEXTURE }

    /** Which part of the symbol's address an operand holds. */
    public enum Part { WHOLE, LO32, HI32 }

    public Sym {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(part, "part");
    }

    public Sym(String name, Kind kind) {
        this(name, kind, Part.WHOLE, 0);
    }

    @Override
    public String toString() {
        String base = addend == 0 ? name : name + "+" + addend;
        return switch (part) {
            case WHOLE -> "@" + base;
            case LO32 -> "32@lo(" + base + ")";
            case HI32 -> "32@hi(" + base + ")";
        };
    }
}
