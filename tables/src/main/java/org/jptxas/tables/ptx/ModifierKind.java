package org.jptxas.tables.ptx;

/**
 * What a modifier group stands for. ptxas words its diagnostics per kind (a second rounding modifier is "Multiple
 * rounding modifiers specified", a missing one "Rounding modifier required for instruction 'cvt'"), so the kind
 * carries those messages; {@code %s} is the instruction's name.
 */
public enum ModifierKind {
    ROUNDING("Multiple rounding modifiers specified", "Rounding modifier required for instruction '%s'",
            "Illegal rounding modifier for instruction '%s'"),
    STATE_SPACE("Unexpected number of state spaces specified in instruction '%s'",
            "State space qualifier required for instruction '%s'",
            "No state space qualifier expected for instruction '%s'"),
    CACHE("Multiple cache operation modifiers specified", "Cache operation modifier required for instruction '%s'",
            "Illegal modifier '.%2$s' for instruction '%1$s'"),
    VECTOR("Multiple vector modifiers specified", "Vector qualifier required for instruction '%s'",
            "Vector qualifier is not allowed for instruction '%s'"),
    COMPARISON("Multiple comparison qualifiers specified", "Comparison modifier required for instruction '%s'",
            "Comparison qualifier is not allowed for instruction '%s'"),
    BOOLEAN("Multiple boolean operations specified", "Boolean operation is required for instruction '%s'",
            "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /** A memory order (.relaxed, .acquire, ...); a missing one is named by the scope written without it. */
    ORDER("Conflicting modifiers '.%3$s' and '.%2$s' for instruction '%1$s'",
            "Modifier '.%3$s' requires memory order with '%1$s' instruction", "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /** A scope (.cta ... .sys); a missing one is named by the order written without it. */
    SCOPE("Multiple scope modifiers specified",
            "Modifier '.%3$s' requires scope with '%1$s' instruction", "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /**
     * membar's level (.cta, .gl, .sys): ptxas counts it as a scope, so another scope word fills the slot and is
     * illegal, while a word of another kind leaves it empty ("Membar level required").
     */
    LEVEL("Multiple scope modifiers specified", "Membar level required for instruction '%s'",
            "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /** The operation of atom/red (and lop3's): ptxas words a missing one oddly. */
    OPERATION("Multiple operations specified", "Illegal operation '' for instruction '%s'",
            "Illegal operation '.%2$s' for instruction '%1$s'"),
    /** A second L2 eviction priority of createpolicy that its secondary slot does not take. */
    PRIORITY("Unsupported modifier '.%2$s' as secondary_priority for instruction '%1$s'",
            "Modifier '.%2$s' required for instruction '%1$s'", "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /** The reduction of multimem/cp.reduce. */
    REDUCTION("Multiple reduction operations specified", "Reduction operation is required for instruction '%s'",
            "Illegal modifier '.%2$s' for instruction '%1$s'"),
    /** Everything else: {@code .ftz}, {@code .sat}, scopes, semantics, shapes, layouts ... */
    OTHER("Conflicting modifiers '.%3$s' and '.%2$s' for instruction '%1$s'",
            "Modifier '.%2$s' required for instruction '%1$s'", "Illegal modifier '.%2$s' for instruction '%1$s'");

    private final String multiple;
    private final String required;
    private final String illegal;

    ModifierKind(String multiple, String required, String illegal) {
        this.multiple = multiple;
        this.required = required;
        this.illegal = illegal;
    }

    /** Two different words of one group: {@code (instruction, second word, first word)}. */
    public String multiple(String instruction, String word, String earlier) {
        return String.format(multiple, instruction, word, earlier);
    }

    /** A required group is absent: {@code (instruction, one word of the group)}. */
    public String required(String instruction, String someWord) {
        return required(instruction, someWord, someWord);
    }

    /**
     * A required group is absent, for kinds whose message names the word written without it ({@link #ORDER} and
     * {@link #SCOPE}): {@code (instruction, one word of the group, the word that needs it)}.
     */
    public String required(String instruction, String someWord, String needingWord) {
        return String.format(required, instruction, someWord, needingWord);
    }

    /** A word of this kind that no form of the instruction takes. */
    public String illegal(String instruction, String word) {
        return String.format(illegal, instruction, word);
    }
}
