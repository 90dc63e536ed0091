package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.tables.ptx.InstructionForm;
import org.jptxas.tables.ptx.ModifierSlot;
import org.jptxas.tables.ptx.OperandKind;
import org.jptxas.tables.ptx.OperandSpec;
import org.jptxas.tables.ptx.PtxType;
import org.jptxas.tables.ptx.TypeSlot;

/**
 * Generates instruction variants from the table: for every form, legal-looking uses (each type of the first type
 * slot, modifiers rotated through their words, optional parts with and without) and mutations of them (a foreign
 * modifier, a dropped modifier, another type word, an operand of another register type, an immediate of the other
 * kind, one operand less or more). Each variant is both PTX text and the {@link InstructionUse} the checker sees, so
 * the checker's verdict can be compared with ptxas's line by line.
 */
final class VariantGenerator {
    /** One generated instruction. */
    record Variant(String text, InstructionUse use, String origin) {}

    /** Register types declared in the generated kernels; other types live in bit registers of their size. */
    static final List<PtxType> REGISTER_TYPES = List.of(PtxType.PRED, PtxType.B8, PtxType.B16, PtxType.B32,
            PtxType.B64, PtxType.B128, PtxType.U8, PtxType.U16, PtxType.U32, PtxType.U64, PtxType.S8, PtxType.S16,
            PtxType.S32, PtxType.S64, PtxType.F16, PtxType.F16X2, PtxType.F32, PtxType.F64);

    /** Register types used to mutate an operand. */
    private static final List<PtxType> MUTANTS = List.of(PtxType.F32, PtxType.B32, PtxType.S64, PtxType.B16,
            PtxType.PRED, PtxType.F64, PtxType.U8, PtxType.F16X2, PtxType.U32, PtxType.B64);

    private static final Set<OperandKind> RENDERABLE = EnumSet.of(OperandKind.REGISTER, OperandKind.DATA,
            OperandKind.PREDICATE, OperandKind.TYPED_IMMEDIATE, OperandKind.INT_IMMEDIATE, OperandKind.ADDRESS,
            OperandKind.LABEL, OperandKind.SINK, OperandKind.SYMBOL, OperandKind.BRANCH_TARGETS);

    /** Kernel prologue declaring every register the variants use. */
    static String declarations() {
        StringBuilder sb = new StringBuilder();
        for (PtxType t : REGISTER_TYPES) {
            sb.append("  .reg .").append(t.ptxName()).append(" %r_").append(t.ptxName()).append("_<8>;\n");
        }
        sb.append("  L_ts: .branchtargets L_end;\n"); // brx.idx's table
        return sb.toString();
    }

    /** Whether the generator can render every operand of the form (forms with free-shaped operands are skipped). */
    static boolean renderable(InstructionForm form) {
        for (OperandSpec o : form.operands()) {
            if (o.kinds().containsAll(EnumSet.allOf(OperandKind.class))) {
                return false;
            }
            if (o.kinds().contains(OperandKind.VECTOR) && (o.vectorLength() > 0 || o.shapeDivisor() > 0)) {
                continue;
            }
            if (o.kinds().stream().noneMatch(RENDERABLE::contains)) {
                return false;
            }
        }
        return true;
    }

    List<Variant> variants(InstructionDef def) {
        Map<String, Variant> out = new LinkedHashMap<>();
        int formIndex = 0;
        for (InstructionForm form : def.forms()) {
            if (!renderable(form)) {
                formIndex++;
                continue;
            }
            List<List<PtxType>> typeChoices = typeChoices(form);
            int k = 0;
            for (List<PtxType> types : typeChoices) {
                for (int optionalMask = 0; optionalMask < 2; optionalMask++) {
                    List<String> mods = modifiers(form, k, optionalMask == 1);
                    int vec = vectorOf(mods);
                    List<Op> ops = operands(form, types, mods, vec, optionalMask == 1);
                    String origin = def.opcode() + "[" + formIndex + "]";
                    add(out, def.opcode(), mods, types, ops, origin);
                    mutate(out, def.opcode(), form, mods, types, ops, origin, k);
                    k++;
                }
            }
            formIndex++;
        }
        return new ArrayList<>(out.values());
    }

    private static List<List<PtxType>> typeChoices(InstructionForm form) {
        List<List<PtxType>> out = new ArrayList<>();
        if (form.types().isEmpty()) {
            out.add(List.of());
            return out;
        }
        TypeSlot first = form.types().get(0);
        List<PtxType> firstTypes = sorted(first.types());
        for (int i = 0; i < firstTypes.size(); i++) {
            List<PtxType> choice = new ArrayList<>();
            choice.add(firstTypes.get(i));
            for (int s = 1; s < form.types().size(); s++) {
                List<PtxType> ts = sorted(form.types().get(s).types());
                choice.add(ts.get(i % ts.size()));
            }
            out.add(choice);
        }
        return out;
    }

    private static List<PtxType> sorted(Set<PtxType> types) {
        List<PtxType> l = new ArrayList<>(types);
        l.sort(null);
        return l;
    }

    private static List<String> modifiers(InstructionForm form, int k, boolean withOptional) {
        List<String> mods = new ArrayList<>();
        for (ModifierSlot m : form.modifiers()) {
            if (m.optional() && !withOptional) {
                continue;
            }
            String w = m.words().get(k % m.words().size());
            if (!mods.contains(w)) {
                mods.add(w);
            }
        }
        return mods;
    }

    private static int vectorOf(List<String> mods) {
        for (String m : mods) {
            if (m.matches("v[248]")) {
                return Integer.parseInt(m.substring(1));
            }
        }
        return 0;
    }

    /** One rendered operand and what the checker is told about it. */
    private record Op(String text, OperandUse use, boolean paired) {
        Op(String text, OperandUse use) {
            this(text, use, false);
        }
    }

    private static List<Op> operands(InstructionForm form, List<PtxType> types, List<String> mods, int vec,
            boolean withOptional) {
        List<Op> ops = new ArrayList<>();
        for (OperandSpec o : form.operands()) {
            if (!o.presentWith().isEmpty()) {
                if (!mods.contains(o.presentWith())) {
                    break;
                }
            } else if (o.optional() && !withOptional) {
                break;
            }
            PtxType t = o.typeSlot() != 0 ? types.get(slotIndex(form, o.typeSlot())) : o.fixedType();
            if (o.doubleWidth() && t != null) {
                t = t.doubled().orElse(t);
            }
            Op op = render(o, t, vec, ops.size(), shapeN(mods));
            ops.add(o.paired() ? new Op(op.text(), op.use(), true) : op);
        }
        return ops;
    }

    private static int slotIndex(InstructionForm form, char slot) {
        for (int i = 0; i < form.types().size(); i++) {
            if (form.types().get(i).name() == slot) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    private static int shapeN(List<String> mods) {
        for (String m : mods) {
            java.util.regex.Matcher x = java.util.regex.Pattern.compile("m\\d+n(\\d+)k\\d+").matcher(m);
            if (x.matches()) {
                return Integer.parseInt(x.group(1));
            }
        }
        return 0;
    }

    private static Op render(OperandSpec o, PtxType t, int vec, int index, int shapeN) {
        Set<OperandKind> k = o.kinds();
        if (k.contains(OperandKind.DATA) && vec > 0) {
            return vector(t, vec);
        }
        if (k.contains(OperandKind.VECTOR) && (o.vectorLength() > 0 || o.shapeDivisor() > 0)) {
            int n = o.shapeDivisor() > 0 ? shapeN / o.shapeDivisor() : o.vectorLength();
            return vector(t == null ? PtxType.B32 : t, Math.max(1, n));
        }
        if (k.contains(OperandKind.REGISTER) || k.contains(OperandKind.DATA)) {
            return register(t == null ? PtxType.B32 : t, index);
        }
        if (k.contains(OperandKind.PREDICATE)) {
            return register(PtxType.PRED, index);
        }
        if (k.contains(OperandKind.ADDRESS)) {
            return new Op("[%r_b64_7]", OperandUse.of(OperandShape.ADDRESS));
        }
        if (k.contains(OperandKind.TYPED_IMMEDIATE)) {
            if (o.multipleOf() > 0 || !o.values().isEmpty() || o.max() != 0) {
                long v = legalValue(o);
                return new Op(Long.toString(v), OperandUse.immediate(v));
            }
            return immediate(t);
        }
        if (k.contains(OperandKind.INT_IMMEDIATE)) {
            long v = legalValue(o);
            return new Op(Long.toString(v), OperandUse.immediate(v));
        }
        if (k.contains(OperandKind.LABEL)) {
            return new Op("L_end", OperandUse.of(OperandShape.LABEL));
        }
        if (k.contains(OperandKind.SYMBOL)) {
            return new Op("gsym", OperandUse.of(OperandShape.SYMBOL));
        }
        if (k.contains(OperandKind.BRANCH_TARGETS)) {
            return new Op("L_ts", OperandUse.of(OperandShape.BRANCH_TARGETS));
        }
        if (k.contains(OperandKind.SINK)) {
            return new Op("_", OperandUse.of(OperandShape.SINK));
        }
        throw new IllegalStateException("cannot render " + k);
    }

    /** An immediate the spec allows: its first listed value, else the smallest multiple inside its range. */
    private static long legalValue(OperandSpec o) {
        if (!o.values().isEmpty()) {
            return o.values().get(0);
        }
        long step = Math.max(1, o.multipleOf());
        long v = o.max() != 0 ? Math.max(o.min(), step) : step;
        return (v + step - 1) / step * step;
    }

    private static Op immediate(PtxType t) {
        if (t != null && t.typeClass() == PtxType.TypeClass.FLOAT) {
            return t.bits() == 64 ? new Op("0d3FF0000000000000", new OperandUse(OperandShape.IMMEDIATE_FLOAT, "f64", 0))
                    : new Op("0f3F800000", new OperandUse(OperandShape.IMMEDIATE_FLOAT, "f32", 0));
        }
        return new Op("1", OperandUse.immediate(1));
    }

    /** A register holding type {@code t}: the type itself when declarable, else a bit register of its size. */
    static PtxType registerType(PtxType t) {
        if (REGISTER_TYPES.contains(t)) {
            return t;
        }
        return switch (t.bits()) {
            case 8 -> PtxType.B8;
            case 16 -> PtxType.B16;
            case 64 -> PtxType.B64;
            case 128 -> PtxType.B128;
            default -> PtxType.B32;
        };
    }

    private static Op register(PtxType t, int index) {
        PtxType r = registerType(t);
        String text = "%r_" + r.ptxName() + "_" + (index % 7);
        OperandShape shape = r == PtxType.PRED ? OperandShape.PREDICATE : OperandShape.REGISTER;
        return new Op(text, new OperandUse(shape, r.ptxName(), 0));
    }

    private static Op vector(PtxType t, int n) {
        PtxType r = registerType(t == null ? PtxType.B32 : t);
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append("%r_").append(r.ptxName()).append("_").append(i % 7);
        }
        return new Op(sb.append("}").toString(), new OperandUse(OperandShape.VECTOR, r.ptxName(), n));
    }

    private void add(Map<String, Variant> out, String opcode, List<String> mods, List<PtxType> types, List<Op> ops,
            String origin) {
        List<String> words = new ArrayList<>(mods);
        types.forEach(t -> words.add(t.ptxName()));
        StringBuilder sb = new StringBuilder(opcode);
        words.forEach(w -> sb.append('.').append(w));
        List<OperandUse> uses = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            sb.append(i == 0 ? " " : ops.get(i).paired() ? "|" : ", ").append(ops.get(i).text());
            uses.add(ops.get(i).use());
        }
        String text = sb.append(';').toString();
        out.putIfAbsent(text, new Variant(text, new InstructionUse(opcode, words, uses), origin));
    }

    private static Op keepPair(Op was, Op now) {
        return new Op(now.text(), now.use(), was.paired());
    }

    private void mutate(Map<String, Variant> out, String opcode, InstructionForm form, List<String> mods,
            List<PtxType> types, List<Op> ops, String origin, int k) {
        String[] foreign = {"volatile", "ftz", "rn", "sat", "global", "v2", "cta", "approx", "relaxed", "lo", "wide"};
        List<String> m1 = new ArrayList<>(mods);
        m1.add(foreign[k % foreign.length]);
        add(out, opcode, m1, types, ops, origin + " +mod");
        if (!mods.isEmpty()) {
            List<String> m2 = new ArrayList<>(mods);
            m2.remove(k % mods.size());
            add(out, opcode, m2, types, ops, origin + " -mod");
        }
        if (!types.isEmpty()) {
            List<PtxType> t2 = new ArrayList<>(types);
            PtxType replacement = MUTANTS.get(k % MUTANTS.size());
            if (replacement != PtxType.PRED) {
                t2.set(0, replacement);
                add(out, opcode, mods, t2, ops, origin + " type");
            }
        }
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            List<Op> o2 = new ArrayList<>(ops);
            if (op.use().shape() == OperandShape.REGISTER || op.use().shape() == OperandShape.PREDICATE) {
                PtxType other = MUTANTS.get((k + i) % MUTANTS.size());
                o2.set(i, keepPair(op, register(other, i)));
                add(out, opcode, mods, types, o2, origin + " op" + i + " reg");
                List<Op> o3 = new ArrayList<>(ops);
                o3.set(i, keepPair(op, new Op("1", OperandUse.immediate(1))));
                add(out, opcode, mods, types, o3, origin + " op" + i + " imm");
            } else if (op.use().shape() == OperandShape.IMMEDIATE_INT) {
                o2.set(i, new Op("0f3F800000", new OperandUse(OperandShape.IMMEDIATE_FLOAT, "f32", 0)));
                add(out, opcode, mods, types, o2, origin + " op" + i + " float");
            } else if (op.use().shape() == OperandShape.IMMEDIATE_FLOAT) {
                o2.set(i, new Op("1", OperandUse.immediate(1)));
                add(out, opcode, mods, types, o2, origin + " op" + i + " int");
            }
        }
        if (!ops.isEmpty()) {
            add(out, opcode, mods, types, ops.subList(0, ops.size() - 1), origin + " -op");
            List<Op> more = new ArrayList<>(ops);
            more.add(register(PtxType.B32, 6));
            add(out, opcode, mods, types, more, origin + " +op");
        }
    }
}
