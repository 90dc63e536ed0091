package org.jptxas.frontend.ptx.ast;

import java.util.List;

/**
 * One instruction: {@code @%p ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1+16];}.
 *
 * @param guard the guard predicate, or {@code null}
 * @param opcode the first word of the name ({@code ld}); multi-word opcodes such as {@code cp.async.bulk} start here
 * @param modifiers the dotted words after it in source order, without dots ({@code [global, v4, f32]})
 */
public record Instruction(SourcePos pos, Guard guard, String opcode, List<String> modifiers, List<Operand> operands)
        implements Statement {
    public Instruction {
        modifiers = List.copyOf(modifiers);
        operands = List.copyOf(operands);
    }

    /** The full dotted name as written ({@code ld.global.v4.f32}). */
    public String fullName() {
        return modifiers.isEmpty() ? opcode : opcode + "." + String.join(".", modifiers);
    }

    /** The name split in words: the opcode then the modifiers. */
    public List<String> nameWords() {
        java.util.ArrayList<String> words = new java.util.ArrayList<>(modifiers.size() + 1);
        words.add(opcode);
        words.addAll(modifiers);
        return words;
    }

    public boolean hasModifier(String modifier) {
        return modifiers.contains(modifier);
    }
}
