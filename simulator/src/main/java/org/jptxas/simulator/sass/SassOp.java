package org.jptxas.simulator.sass;

import java.util.List;

/**
 * One SASS instruction as the emulator runs it: guard, opcode, dotted modifiers and operands, at its address, built
 * from the decoder's typed form ({@link TypedOps}). {@code text} is the printed nvdisasm text, kept for messages.
 */
record SassOp(long address, int guard, boolean guardNegated, boolean guardUniform, String opcode, List<String> modifiers,
              List<SassOperand> operands, String text, String fullName) {
    SassOp {
        modifiers = List.copyOf(modifiers);
        operands = List.copyOf(operands);
    }

    SassOp(long address, int guard, boolean guardNegated, boolean guardUniform, String opcode, List<String> modifiers,
           List<SassOperand> operands, String text) {
        this(address, guard, guardNegated, guardUniform, opcode, modifiers, operands, text,
                modifiers.isEmpty() ? opcode : opcode + "." + String.join(".", modifiers));
    }

    boolean has(String m) {
        return modifiers.contains(m);
    }


    String where() {
        return String.format("0x%04x (%s)", address, text);
    }
}
