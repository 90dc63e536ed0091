package org.jptxas.frontend.ptx.ast;

import java.util.Optional;

/** The PTX state spaces a variable can be declared in. */
public enum StateSpace {
    REG(".reg"), SREG(".sreg"), CONST(".const"), GLOBAL(".global"), LOCAL(".local"), PARAM(".param"),
    SHARED(".shared"), TEX(".tex");

    private final String directive;

    StateSpace(String directive) {
        this.directive = directive;
    }

    /** The directive as written in PTX, with its dot. */
    public String directive() {
        return directive;
    }

    /** The state space named by a directive such as {@code .shared}. */
    public static Optional<StateSpace> fromDirective(String directive) {
        for (StateSpace s : values()) {
            if (s.directive.equals(directive)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
