package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The operand decorations of one instruction class (base mnemonic, dispatch key and operand count): bits that print
 * as {@code -} or {@code |x|} on one operand whatever the other fields hold, read from each word instead of composed
 * onto forms (ptxas writes them on few operand kinds, nvdisasm reads them on all). Found by
 * {@code tools/sass-probe/operand-decorations}: on every learned form of the class, the bit flipped on an example word
 * changed only that operand.
 *
 * @param mnemonic the base mnemonic, e.g. {@code "DADD"}
 * @param key the 13-bit dispatch key
 * @param operands the number of operands nvdisasm prints (guard excluded)
 * @param decorations the bits, by operand
 */
public record SassDecorationClass(String mnemonic, int key, int operands, List<SassOperandDecoration> decorations) {
    @JsonCreator
    public SassDecorationClass(@JsonProperty(value = "mnemonic", required = true) String mnemonic,
                               @JsonProperty(value = "key", required = true) int key,
                               @JsonProperty(value = "operands", required = true) int operands,
                               @JsonProperty(value = "decorations", required = true)
                               List<SassOperandDecoration> decorations) {
        if (key < 0 || key >= 1 << 13 || operands < 1 || decorations.isEmpty()) {
            throw new IllegalArgumentException("decoration class " + mnemonic + "/" + key + ": key must be 13 bits,"
                    + " operands >= 1 and decorations not empty");
        }
        for (SassOperandDecoration d : decorations) {
            if (d.operand() >= operands) {
                throw new IllegalArgumentException("decoration class " + mnemonic + "/" + key + ": operand "
                        + d.operand() + " of " + operands);
            }
        }
        this.mnemonic = mnemonic;
        this.key = key;
        this.operands = operands;
        this.decorations = List.copyOf(decorations);
    }
}
