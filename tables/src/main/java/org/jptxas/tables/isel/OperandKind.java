package org.jptxas.tables.isel;

import java.util.Locale;

/** What an Ori operand is, as a matcher pattern names it ({@code R}, {@code UR}, {@code imm}, {@code cbank}, ...). */
public enum OperandKind {
    /** A general (per-thread) register, RZ included. */
    R,
    /** A uniform register, URZ included. */
    UR,
    /** A predicate, PT included. */
    P,
    /** A uniform predicate, UPT included. */
    UP,
    /** The constant registers (RZ, URZ, PT, UPT): a register of their file that is also its zero / true value. */
    RZ,
    URZ,
    PT,
    UPT,
    IMM,
    CBANK,
    ADDR,
    SYM,
    LABEL,
    SPECIAL;

    /** The pattern spelling: register files upper case, the rest lower case. */
    public String spelling() {
        return ordinal() <= UPT.ordinal() ? name() : name().toLowerCase(Locale.ROOT);
    }

    public static OperandKind parse(String s) {
        for (OperandKind k : values()) {
            if (k.spelling().equals(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown operand kind '" + s + "' (R UR P UP RZ URZ PT UPT imm cbank addr sym label special)");
    }
}
