package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One bit that negates ({@code -}) or takes the absolute value ({@code |x|}) of an operand, as nvdisasm prints it.
 *
 * @param bit the instruction bit (0..127)
 * @param operand the decorated operand counted from the last one (0: the last), so destinations and carry-outs in
 *     front of the sources do not move it
 * @param token {@code "-"} or {@code "|"}
 */
public record SassOperandDecoration(int bit, int operand, String token) {
    @JsonCreator
    public SassOperandDecoration(@JsonProperty(value = "bit", required = true) int bit,
                                 @JsonProperty(value = "operand", required = true) int operand,
                                 @JsonProperty(value = "token", required = true) String token) {
        if (bit < 0 || bit > 127 || operand < 0 || !("-".equals(token) || "|".equals(token))) {
            throw new IllegalArgumentException("decoration bit " + bit + " of operand " + operand + " with token '"
                    + token + "': want a bit 0..127, an operand >= 0 and '-' or '|'");
        }
        this.bit = bit;
        this.operand = operand;
        this.token = token;
    }
}
