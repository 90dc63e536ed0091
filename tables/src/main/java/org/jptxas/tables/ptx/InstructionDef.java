package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Objects;

/** All forms of one PTX instruction, named as the PTX ISA manual names it ({@code add}, {@code cp.async.bulk}). */
public record InstructionDef(String opcode, List<InstructionForm> forms) {
    public InstructionDef {
        Objects.requireNonNull(opcode, "opcode");
        forms = List.copyOf(forms);
        if (forms.isEmpty()) {
            throw new IllegalArgumentException("instruction " + opcode + " has no form");
        }
    }
}
