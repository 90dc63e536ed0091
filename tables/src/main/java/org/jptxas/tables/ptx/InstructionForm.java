package org.jptxas.tables.ptx;

import java.util.List;
import java.util.Objects;

/**
 * One legal shape of an instruction: its type slots, modifier slots, operands and gates.
 *
 * @param name the name ptxas uses in diagnostics for this form ({@code mul.lo}, {@code wgmma.fence})
 * @param maxVectorBits the largest {@code .vN} vector in bits (elements times type size), 0 = no limit
 * @param subject how ptxas names the form in the messages of its gates when not "Feature '<name>'" ("Feature
 *     '256 bit wide load/store'", "Instruction 'dp4a'"), empty otherwise
 * @param source the table text the form was read from, for messages and tests
 */
public record InstructionForm(String name, List<TypeSlot> types, List<ModifierSlot> modifiers,
        List<OperandSpec> operands, List<Gate> gates, List<Exclusion> exclusions, int maxVectorBits, String subject,
        String source) {
    public InstructionForm {
        Objects.requireNonNull(subject, "subject");
        exclusions = List.copyOf(exclusions);
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        types = List.copyOf(types);
        modifiers = List.copyOf(modifiers);
        operands = List.copyOf(operands);
        gates = List.copyOf(gates);
    }

    /** The number of operands that must be present. */
    public int requiredOperands() {
        int n = 0;
        for (OperandSpec o : operands) {
            if (o.optional()) {
                break;
            }
            n++;
        }
        return n;
    }

    public TypeSlot typeSlot(char name) {
        for (TypeSlot t : types) {
            if (t.name() == name) {
                return t;
            }
        }
        throw new IllegalArgumentException("no type slot " + name);
    }
}
