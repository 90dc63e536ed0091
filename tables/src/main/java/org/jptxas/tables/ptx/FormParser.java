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
 *   <li>{@code m:rn,rz} / {@code m:@rnd?} / {@code m:add,min#OPERATION} — a modifier slot: words or
 *       {@code @group}s, {@code ?} = optional, {@code #KIND} = the {@link ModifierKind} that words its messages;</li>
 *   <li>{@code o:rn:T} — an operand: shape codes (see {@link OperandKind}), then the type slot letter, a fixed type
 *       or nothing; {@code ~} after the type accepts wider registers, a final {@code ^} checks a register for the
 *       fixed type as for an instruction type; {@code ?} = optional from here on;</li>
 *   <li>{@code sm=90}, {@code ptx=78}, {@code arch=sm_90a,sm_100a}, {@code maxptx=63} — gates of the whole form, checked
 *       after the word gates written before them;</li>
 *   <li>{@code g:bf16:sm=90,ptx=78} — a gate that applies when the word {@code bf16} is written ({@code named=1}:
 *       its message names the instruction; {@code feature=1}: ptxas calls the word a feature,
 *       {@code feature=scopes_on_atomic_operations} or {@code instruction=atom.add.f64.global}: ptxas names the
 *       feature or instruction so);</li>
 *   <li>{@code o:V4:f32} — a vector of exactly four registers; {@code o:Vn/2:D} — of N/2 registers, N from the
 *       {@code .mXnNkK} shape modifier;</li>
 *   <li>{@code o:|p_} — an operand joined to the previous one by {@code |}; {@code o:r:b64?L2::cache_hint} — an
 *       optional operand present exactly when the word is written;</li>
 *   <li>{@code o:i=4,8,16} / {@code o:S:u32%16} / {@code o:S:u32%warp} / {@code o:i%8@24..256} — immediate values
 *       allowed, a multiple, a range (the operand text ends with these);</li>
 *   <li>{@code needs:abs/xorsign} — a word that is only legal together with one of the others ({@code needsin:}
 *       when ptxas's message names the instruction);</li>
 *   <li>{@code x:L2::cache_hint/local,shared} — words (modifiers or types) that cannot be written together
 *       ({@code xu:} when ptxas's message for a state space does not name the instruction, {@code xi:} when it calls
 *       the first word illegal on the instruction);</li>
 *   <li>{@code xf:cache_prefetching:L2::64B/local,shared} — words of a feature that the state spaces after the
 *       slash do not have ("State space incorrect for feature 'cache prefetching'");</li>
 *   <li>{@code vmax=128} — the largest {@code .vN} vector in bits;</li>
 *   <li>{@code name:mul.lo} — the name ptxas gives this form in messages (default: the opcode);</li>
 *   <li>{@code feature:256_bit_wide_load/store} — the feature name of the form's gates in messages ({@code _} is a
 *       space, {@code __} an underscore); {@code instruction:dp2a.lo} — ptxas names the form an instruction in them;</li>
 *   <li>{@code retiredfrom=70} — {@code maxptx} drops the form only for targets from sm_70 on.</li>
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
        String subject = "";
        List<TypeSlot> types = new ArrayList<>();
        List<ModifierSlot> mods = new ArrayList<>();
        List<OperandSpec> operands = new ArrayList<>();
        List<Gate> gates = new ArrayList<>();
        List<Exclusion> exclusions = new ArrayList<>();
        int maxVectorBits = 0;
        int formSm = 0;
        int formPtx = 0;
        int formMaxPtx = 0;
        int retiredFromSm = 0;
        // the form's own gate stands among the word gates where the text puts it: ptxas names fence.proxy's .alias
        // before fence.proxy itself, but atom.add.f64 before the scope of the atom
        int formGateAt = -1;
        List<String> formTargets = List.of();
        boolean optionalSeen = false;
        for (String item : text.trim().split("\\s+")) {
            if (item.isEmpty()) {
                continue;
            }
            if (formGateAt < 0 && (item.startsWith("sm=") || item.startsWith("ptx=") || item.startsWith("arch=")
                    || item.startsWith("maxptx=") || item.startsWith("retiredfrom="))) {
                formGateAt = gates.size();
            }
            if (item.startsWith("name:")) {
                name = item.substring(5);
            } else if (item.startsWith("feature:")) {
                subject = "Feature '" + spaced(item.substring(8)) + "'";
            } else if (item.startsWith("instruction:")) {
                subject = "Instruction '" + spaced(item.substring(12)) + "'";
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
            } else if (item.startsWith("needs:") || item.startsWith("needsin:")) {
                boolean named = item.startsWith("needsin:");
                String[] sides = item.substring(named ? 8 : 6).split("/");
                if (sides.length != 2) {
                    throw new IllegalArgumentException("cannot read requirement '" + item + "'");
                }
                exclusions.add(new Exclusion(List.of(sides[0].split(",")), List.of(sides[1].split(",")), true, named));
            } else if (item.startsWith("x:") || item.startsWith("xu:") || item.startsWith("xi:")
                    || item.startsWith("xf:")) {
                exclusions.add(exclusion(item));
            } else if (item.startsWith("vmax=")) {
                maxVectorBits = number(item.substring(5));
            } else if (item.startsWith("sm=")) {
                formSm = number(item.substring(3));
            } else if (item.startsWith("retiredfrom=")) {
                retiredFromSm = number(item.substring(12));
            } else if (item.startsWith("maxptx=")) {
                formMaxPtx = number(item.substring(7));
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
        for (OperandSpec o : operands) {
            if (!o.presentWith().isEmpty() && mods.stream().noneMatch(m -> m.accepts(o.presentWith()))) {
                throw new IllegalArgumentException("operand tied to '" + o.presentWith() + "', which no modifier slot takes");
            }
        }
        if (formSm != 0 || formPtx != 0 || !formTargets.isEmpty() || formMaxPtx != 0) {
            gates.add(formGateAt, new Gate("", formSm, formPtx, formTargets, formMaxPtx, retiredFromSm, false, ""));
        }
        return new InstructionForm(name, types, mods, operands, gates, exclusions, maxVectorBits, subject, text.trim());
    }

    private static Exclusion exclusion(String item) {
        String kind = item.substring(0, item.indexOf(':'));
        String rest = item.substring(kind.length() + 1);
        String feature = "";
        if (kind.equals("xf")) {
            int colon = rest.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("cannot read feature exclusion '" + item + "'");
            }
            feature = spaced(rest.substring(0, colon));
            rest = rest.substring(colon + 1);
        }
        String[] sides = rest.split("/");
        if (sides.length != 2) {
            throw new IllegalArgumentException("cannot read exclusion '" + item + "'");
        }
        Exclusion.Wording wording = switch (kind) {
            case "xi" -> Exclusion.Wording.ILLEGAL;
            case "xf" -> Exclusion.Wording.FEATURE_SPACE;
            default -> Exclusion.Wording.CONFLICT;
        };
        return new Exclusion(List.of(sides[0].split(",")), List.of(sides[1].split(",")), false, !kind.equals("xu"),
                wording, feature);
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
        ModifierKind explicit = null;
        int hash = spec.indexOf('#');
        if (hash >= 0) {
            try {
                explicit = ModifierKind.valueOf(spec.substring(hash + 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown modifier kind '" + spec.substring(hash + 1) + "'");
            }
            spec = spec.substring(0, hash);
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
        if (explicit != null) {
            kind = explicit;
            groupName = groupName.isEmpty() ? "#" + explicit.name() : groupName;
        }
        if (kind == null) {
            // literal words take their group's kind, but comparisons only come through @cmp groups: a literal
            // .lo/.hi is mul's half, not a comparison
            kind = kindOfWord.getOrDefault(words.iterator().next(), ModifierKind.OTHER);
            if (kind == ModifierKind.COMPARISON) {
                kind = ModifierKind.OTHER;
            }
        }
        return new ModifierSlot(groupName, List.copyOf(words), kind, optional);
    }

    private static OperandSpec operand(String spec, List<TypeSlot> types) {
        boolean paired = spec.startsWith("|");
        if (paired) {
            spec = spec.substring(1);
        }
        String presentWith = "";
        int q = spec.indexOf('?');
        boolean optional = q >= 0;
        if (optional) {
            presentWith = spec.substring(q + 1);
            spec = spec.substring(0, q);
        }
        boolean slotLike = spec.endsWith("^");
        if (slotLike) {
            spec = spec.substring(0, spec.length() - 1);
        }
        boolean widening = spec.endsWith("~");
        if (widening) {
            spec = spec.substring(0, spec.length() - 1);
        }
        List<Long> values = new ArrayList<>();
        long multipleOf = 0;
        boolean warpMultiple = false;
        long min = 0;
        long max = 0;
        int at = spec.indexOf('@');
        if (at >= 0) {
            String[] range = spec.substring(at + 1).split("\\.\\.");
            if (range.length != 2) {
                throw new IllegalArgumentException("cannot read range '" + spec.substring(at) + "'");
            }
            min = number(range[0]);
            max = number(range[1]);
            spec = spec.substring(0, at);
        }
        int eq = spec.indexOf('=');
        if (eq >= 0) {
            for (String v : spec.substring(eq + 1).split(",")) {
                values.add((long) number(v));
            }
            spec = spec.substring(0, eq);
        }
        int pct = spec.indexOf('%');
        if (pct >= 0) {
            String m = spec.substring(pct + 1);
            warpMultiple = m.equals("warp");
            multipleOf = warpMultiple ? 32 : number(m);
            spec = spec.substring(0, pct);
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
        int vectorLength = 0;
        int shapeDivisor = 0;
        java.util.regex.Matcher byShape = java.util.regex.Pattern.compile("Vn/(\\d+)").matcher(parts[0]);
        if (byShape.find()) {
            shapeDivisor = Integer.parseInt(byShape.group(1));
            parts[0] = parts[0].substring(0, byShape.start() + 1) + parts[0].substring(byShape.end());
        }
        java.util.regex.Matcher fixedVector = java.util.regex.Pattern.compile("V(\\d+)").matcher(parts[0]);
        if (fixedVector.find()) {
            vectorLength = Integer.parseInt(fixedVector.group(1));
            parts[0] = parts[0].substring(0, fixedVector.start() + 1) + parts[0].substring(fixedVector.end());
        }
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
        boolean registers = kinds.contains(OperandKind.REGISTER) || kinds.contains(OperandKind.DATA)
                || kinds.contains(OperandKind.VECTOR);
        if (kinds.contains(OperandKind.PREDICATE) && !registers && slot == 0 && fixed == null) {
            fixed = PtxType.PRED;
        }
        if (doubleWidth && slot == 0) {
            throw new IllegalArgumentException("'+' needs a type slot");
        }
        return new OperandSpec(kinds, slot, fixed, doubleWidth, widening, optional, paired, presentWith, values,
                multipleOf, warpMultiple, min, max, vectorLength, shapeDivisor, slotLike);
    }

    private Gate wordGate(String spec) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(":(?=(sm|ptx|arch)=)").matcher(spec);
        int colon = m.find() ? m.start() : -1;
        if (colon <= 0) {
            throw new IllegalArgumentException("cannot read gate 'g:" + spec + "'");
        }
        String word = spec.substring(0, colon);
        int sm = 0;
        int ptx = 0;
        List<String> targets = List.of();
        boolean namesInstruction = false;
        String subject = "";
        for (String c : spec.substring(colon + 1).split(",(?=[a-z]+=)")) {
            if (c.startsWith("sm=")) {
                sm = number(c.substring(3));
            } else if (c.startsWith("ptx=")) {
                ptx = number(c.substring(4));
            } else if (c.startsWith("arch=")) {
                targets = targets(c.substring(5));
            } else if (c.equals("named=1")) {
                namesInstruction = true;
            } else if (c.equals("feature=1")) {
                subject = "Feature '." + word + "'";
            } else if (c.startsWith("feature=")) {
                subject = "Feature '" + spaced(c.substring(8)) + "'";
            } else if (c.startsWith("instruction=")) {
                subject = "Instruction '" + spaced(c.substring(12)) + "'";
            } else if (c.startsWith("modifier=")) {
                subject = "Modifier '" + spaced(c.substring(9)) + "'";
            } else {
                throw new IllegalArgumentException("cannot read gate condition '" + c + "'");
            }
        }
        return new Gate(word, sm, ptx, targets, 0, 0, namesInstruction, subject);
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

    /** A name written without spaces: {@code _} stands for a space, {@code __} for an underscore (mbarrier.arrive_drop). */
    static String spaced(String written) {
        return written.replace("__", "\u0000").replace('_', ' ').replace('\u0000', '_');
    }
}
