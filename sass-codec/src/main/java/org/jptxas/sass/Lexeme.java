package org.jptxas.sass;

/**
 * A value-bearing piece of instruction text: a register ({@code R12}, {@code RZ}, {@code UP1}, {@code B0}), a hex
 * number with optional sign, a decimal/float number (also {@code +INF}, {@code -QNAN}), or a label reference
 * ({@code `(.L_x_3)}). Everything between lexemes is literal text.
 *
 * @param type the lexeme type
 * @param text the exact text
 * @param prefix for {@link Type#REG}: {@code R}, {@code UR}, {@code P}, {@code UP}, {@code B} or {@code SB}
 * @param number for {@link Type#REG}: the register number (RZ = 255, URZ = 63, PT = UPT = 7); for {@link Type#HEX}:
 *     the signed value
 */
public record Lexeme(Type type, String text, String prefix, long number) {
    public enum Type { REG, HEX, DEC, LABEL }

    /** For a label: the name inside {@code `( )}. */
    public String labelName() {
        return text.substring(2, text.length() - 1);
    }
}
