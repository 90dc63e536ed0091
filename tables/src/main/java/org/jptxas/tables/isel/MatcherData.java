package org.jptxas.tables.isel;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One instruction-selection matcher. It applies to an Ori instruction whose opcode is one of {@code ops} (empty: any),
 * on one of {@code targets} (empty: every target of the set), whose modifiers pass {@code mods} and whose operands
 * pass {@code operands}; among the matchers that apply, the highest {@code priority} wins and its {@code emit}
 * template rewrites the sm_80 spelling into the target's.
 */
public record MatcherData(String name, int priority, List<String> targets, List<String> ops, List<ModTest> mods,
                          List<OperandTest> operands, List<EmitAction> emit, String why) {
    public MatcherData {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(why, "why");
        if (!name.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("matcher name '" + name + "' must be lower-case-with-dashes");
        }
        if (priority < 1 || priority > 63) {
            throw new IllegalArgumentException("matcher " + name + ": priority " + priority + " outside 1..63");
        }
        targets = List.copyOf(targets);
        ops = List.copyOf(ops);
        mods = List.copyOf(mods);
        operands = List.copyOf(operands);
        emit = List.copyOf(emit);
        for (String t : targets) {
            if (!t.matches("sm_[0-9]+[a-z]?")) {
                throw new IllegalArgumentException("matcher " + name + ": bad target '" + t + "'");
            }
        }
        for (String op : ops) {
            if (!op.matches("[A-Z][A-Z0-9_]*")) {
                throw new IllegalArgumentException("matcher " + name + ": bad Ori opcode '" + op + "'");
            }
        }
        Set<String> seen = new HashSet<>();
        for (ModTest m : mods) {
            if (!seen.add(m.mod())) {
                throw new IllegalArgumentException("matcher " + name + ": modifier " + m.mod() + " tested twice");
            }
        }
        Set<Integer> idx = new HashSet<>();
        for (OperandTest o : operands) {
            if (!idx.add(o.index())) {
                throw new IllegalArgumentException("matcher " + name + ": operand " + o.index() + " tested twice");
            }
        }
        long renames = emit.stream().filter(a -> a.kind() == EmitAction.Kind.OPCODE).count();
        long orders = emit.stream().filter(a -> a.kind() == EmitAction.Kind.OPERANDS).count();
        if (renames > 1 || orders > 1) {
            throw new IllegalArgumentException("matcher " + name + ": at most one opcode and one operand list");
        }
    }
}
