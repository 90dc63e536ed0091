package org.jptxas.simulator.sass;

import java.util.List;

/**
 * One parsed SASS instruction: guard, opcode, dotted modifiers and operands, at its address. {@code text} is the
 * nvdisasm text, kept for messages.
 */
record SassOp(long address, int guard, boolean guardNegated, boolean guardUniform, String opcode, List<String> modifiers,
              List<SassOperand> operands, String text) {
    SassOp {
        modifiers = List.copyOf(modifiers);
        operands = List.copyOf(operands);
    }

    boolean has(String m) {
        return modifiers.contains(m);
    }

    /** {@code IMAD.WIDE.U32} etc. */
    String fullName() {
        return modifiers.isEmpty() ? opcode : opcode + "." + String.join(".", modifiers);
    }

    String where() {
        return String.format("0x%04x (%s)", address, text);
    }
}
