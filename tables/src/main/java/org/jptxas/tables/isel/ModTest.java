package org.jptxas.tables.isel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A modifier a pattern requires ({@code "E"}) or forbids ({@code "!GPU"}); {@code "!*"} forbids every modifier the
 * pattern does not require (the modifiers must be exactly the required ones).
 */
public record ModTest(String mod, boolean required) {
    public ModTest {
        Objects.requireNonNull(mod, "mod");
        if (!mod.matches("[A-Z0-9_]+") && !(mod.equals("*") && !required)) {
            throw new IllegalArgumentException("bad modifier '" + mod + "' (upper-case SASS modifier without dot)");
        }
    }

    /** {@code "!*"}: no modifier beyond the required ones. */
    public boolean exact() {
        return mod.equals("*");
    }

    @JsonCreator
    public static ModTest parse(String text) {
        return text.startsWith("!") ? new ModTest(text.substring(1), false) : new ModTest(text, true);
    }

    @JsonValue
    public String text() {
        return required ? mod : "!" + mod;
    }
}
