package org.jptxas.tables.ptx;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one form of the instruction table. A form is a space-separated list of items:
 * <ul>
 *   <li>{@code T:f32,@int} — a type slot named by one capital letter, with the types it allows (names or
 *       {@code @typeSet}); slots are matched in order against the type words of the instruction;</li>
 *   <li>{@code m:rn,rz} / {@code m:@rnd?} — a modifier slot: words or {@code @group}s, {@code ?} = optional;</li>
 *   <li>{@code o:rn:T} — an operand: shape codes (see {@link OperandKind}), then the type slot letter, a fixed type
 *       or nothing; {@code ~} after the type accepts wider registers; {@code ?} = optional from here on;</li>
 *   <li>{@code sm=90}, {@code ptx=78}, {@code arch=sm_90a,sm_100a} — gates of the whole form;</li>
 *   <li>{@code g:bf16:sm=90,ptx=78} — a gate that applies when the word {@code bf16} is written;</li>
 *   <li>{@code name:mul.lo} — the name ptxas gives this form in messages (default: the opcode).</li>
 * </ul>
 */
final class FormParser {
    private final Map<String, PtxInstructionTable.GroupEntry> groups;
    private final Map<String, Set<PtxType>> typeSets;
    private final Map<String, ModifierKind> kindOfWord;
    private final Map<String, String> targetSets;

    FormParser(Map<String, PtxInstructionTable.GroupEntry> groups, Map<String, Set<PtxType>> typeSets,
            Map<String, ModifierKind> kindOfWord, Map<String, String> targetSets) {
        this.targetSets = targetSets;
        this.groups = groups;
        this.typeSets = typeSets;
        this.kindOfWord = kindOfWord;
    }

    InstructionForm parse(String opcode, String text) {
        String name = opcode;
        List<TypeSlot> types = new ArrayList<>();
        List<ModifierSlot> mods = new ArrayList<>();
        List<OperandSpec> operands = new ArrayList<>();
        List<Gate> gates = new ArrayList<>();
        int formSm = 0;
        int formPtx = 0;
        List<String> formTargets = List.of();
        boolean optionalSeen = false;
        for (String item : text.trim().split("\\s+")) {
            if (item.isEmpty()) {
                continue;
            }
            if (item.startsWith("name:")) {
                name = item.substring(5);
            } else if (item.length() > 2 && Character.isUpperCase(item.charAt(0)) && item.charAt(1) == ':') {
                char slot = item.charAt(0);
                if (types.stream().anyMatch(t -> t.name() == slot)) {
                    throw new IllegalArgumentException("type slot " + slot + " declared twice");
                }
                types.add(new TypeSlot(slot, typeList(item.substring(2))));
            } else if (item.startsWith("m:")) {
                mods.add(modifierSlot(item.substring(2)));
            } else if (item.startsWith("o:")) {
                OperandSpec o = operand(item.substring(2), types);
                if (optionalSeen && !o.optional()) {
                    throw new IllegalArgumentException("required operand '" + item + "' after an optional one");
                }
                optionalSeen |= o.optional();
                operands.add(o);
            } else if (item.startsWith("sm=")) {
                formSm = number(item.substring(3));
            } else if (item.startsWith("ptx=")) {
                formPtx = number(item.substring(4));
            } else if (item.startsWith("arch=")) {
                formTargets = targets(item.substring(5));
            } else if (item.startsWith("g:")) {
                gates.add(wordGate(item.substring(2)));
            } else {
                throw new IllegalArgumentException("cannot read form item '" + item + "'");
            }
        }
        if (formSm != 0 || formPtx != 0 || !formTargets.isEmpty()) {
            gates.add(0, new Gate("", formSm, formPtx, formTargets));
        }
        return new InstructionForm(name, types, mods, operands, gates, text.trim());
    }

    private Set<PtxType> typeList(String spec) {
        Set<PtxType> out = EnumSet.noneOf(PtxType.class);
        for (String t : spec.split(",")) {
            if (t.startsWith("@")) {
                Set<PtxType> set = typeSets.get(t.substring(1));
                if (set == null) {
                    throw new IllegalArgumentException("unknown type set '" + t + "'");
                }
                out.addAll(set);
            } else {
                out.add(PtxType.of(t).orElseThrow(() -> new IllegalArgumentException("unknown type '" + t + "'")));
            }
        }
        return out;
    }

    private ModifierSlot modifierSlot(String spec) {
        boolean optional = spec.endsWith("?");
        if (optional) {
            spec = spec.substring(0, spec.length() - 1);
        }
        Set<String> words = new LinkedHashSet<>();
        ModifierKind kind = null;
        String groupName = "";
        for (String w : spec.split(",")) {
            if (w.startsWith("@")) {
                PtxInstructionTable.GroupEntry g = groups.get(w.substring(1));
                if (g == null) {
                    throw new IllegalArgumentException("unknown modifier group '" + w + "'");
                }
                groupName = groupName.isEmpty() ? w.substring(1) : groupName;
                kind = kind == null ? g.kind() : kind;
                words.addAll(List.of(g.words().trim().split("\\s+")));
            } else if (w.isEmpty() || PtxType.of(w).isPresent()) {
                throw new IllegalArgumentException("'" + w + "' cannot be a modifier word");
            } else {
                words.add(w);
            }
        }
        if (kind == null) {
            kind = kindOfWord.getOrDefault(words.iterator().next(), ModifierKind.OTHER);
        }
        return new ModifierSlot(groupName, List.copyOf(words), kind, optional);
    }

    private static OperandSpec operand(String spec, List<TypeSlot> types) {
        boolean optional = spec.endsWith("?");
        if (optional) {
            spec = spec.substring(0, spec.length() - 1);
        }
        boolean widening = spec.endsWith("~");
        if (widening) {
            spec = spec.substring(0, spec.length() - 1);
        }
        boolean doubleWidth = spec.endsWith("+");
        if (doubleWidth) {
            spec = spec.substring(0, spec.length() - 1);
        }
        String[] parts = spec.split(":", -1);
        if (parts.length > 2 || parts[0].isEmpty()) {
            throw new IllegalArgumentException("cannot read operand 'o:" + spec + "'");
        }
        Set<OperandKind> kinds = EnumSet.noneOf(OperandKind.class);
        for (char c : parts[0].toCharArray()) {
            if (c == '*') {
                kinds.addAll(EnumSet.allOf(OperandKind.class));
            } else if (c == 'S') {
                kinds.addAll(EnumSet.of(OperandKind.REGISTER, OperandKind.TYPED_IMMEDIATE));
            } else {
                kinds.add(OperandKind.ofCode(c));
            }
        }
        char slot = 0;
        PtxType fixed = null;
        if (parts.length == 2 && !parts[1].isEmpty() && !parts[1].equals("*")) {
            String t = parts[1];
            if (t.length() == 1 && Character.isUpperCase(t.charAt(0))) {
                slot = t.charAt(0);
                char s = slot;
                if (types.stream().noneMatch(ts -> ts.name() == s)) {
                    throw new IllegalArgumentException("operand refers to undeclared type slot " + slot);
                }
            } else {
                fixed = PtxType.of(t).orElseThrow(() -> new IllegalArgumentException("unknown type '" + t + "'"));
            }
        }
        if (kinds.contains(OperandKind.PREDICATE) && slot == 0 && fixed == null) {
            fixed = PtxType.PRED;
        }
        if (doubleWidth && slot == 0) {
            throw new IllegalArgumentException("'+' needs a type slot");
        }
        return new OperandSpec(kinds, slot, fixed, doubleWidth, widening, optional);
    }

    private Gate wordGate(String spec) {
        int colon = spec.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("cannot read gate 'g:" + spec + "'");
        }
        String word = spec.substring(0, colon);
        int sm = 0;
        int ptx = 0;
        List<String> targets = List.of();
        for (String c : spec.substring(colon + 1).split(",(?=[a-z]+=)")) {
            if (c.startsWith("sm=")) {
                sm = number(c.substring(3));
            } else if (c.startsWith("ptx=")) {
                ptx = number(c.substring(4));
            } else if (c.startsWith("arch=")) {
                targets = targets(c.substring(5));
            } else {
                throw new IllegalArgumentException("cannot read gate condition '" + c + "'");
            }
        }
        return new Gate(word, sm, ptx, targets);
    }

    /** Target names, or {@code @set} names of the table's target sets, comma separated. */
    private List<String> targets(String spec) {
        List<String> out = new ArrayList<>();
        for (String t : spec.split(",")) {
            if (t.startsWith("@")) {
                String set = targetSets.get(t.substring(1));
                if (set == null) {
                    throw new IllegalArgumentException("unknown target set '" + t + "'");
                }
                out.addAll(List.of(set.trim().split("\\s+")));
            } else if (t.matches("sm_[0-9]+[af]?")) {
                out.add(t);
            } else {
                throw new IllegalArgumentException("not a target name: '" + t + "'");
            }
        }
        return out;
    }

    private static int number(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: '" + s + "'");
        }
    }
}
