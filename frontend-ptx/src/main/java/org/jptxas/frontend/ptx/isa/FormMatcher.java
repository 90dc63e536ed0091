package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.Gate;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.tables.ptx.InstructionForm;
import org.jptxas.tables.ptx.ModifierKind;
import org.jptxas.tables.ptx.ModifierSlot;
import org.jptxas.tables.ptx.OperandKind;
import org.jptxas.tables.ptx.OperandSpec;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.jptxas.tables.ptx.PtxType;
import org.jptxas.tables.ptx.TypeSlot;

/**
 * Matches one instruction use against the forms of its instruction. Each form is tried in the order ptxas checks:
 * instruction types, then modifiers, then operands; a form that passes all three decides the gates. When no form
 * passes, the problems of the form that got furthest are reported (the first such form on a tie), which reproduces
 * ptxas's choice of message: {@code add.rn.s32} fails the float forms on types and the integer form on modifiers,
 * so it is "Illegal rounding modifier".
 */
final class FormMatcher {
    private static final int TYPES = 0;
    private static final int MODIFIERS = 1;
    private static final int OPERANDS = 2;
    private static final int PASSED = 3;

    private final PtxInstructionSet table;
    private final InstructionDef def;
    private final InstructionUse use;
    private final int ptx;
    private final TargetInfo target;
    private final List<PtxType> typeWords = new ArrayList<>();
    private final List<String> modifierWords = new ArrayList<>();

    FormMatcher(PtxInstructionSet table, InstructionDef def, InstructionUse use, int ptx, TargetInfo target) {
        this.table = table;
        this.def = def;
        this.use = use;
        this.ptx = ptx;
        this.target = target;
    }

    private record Attempt(InstructionForm form, int stage, List<IsaProblem> problems) {}

    List<IsaProblem> problems() {
        for (String w : use.modifiers()) {
            Optional<PtxType> t = PtxType.of(w);
            if (t.isPresent()) {
                typeWords.add(t.get());
            } else if (table.isModifierWord(w)) {
                modifierWords.add(w);
            } else {
                return PtxIsa.single("Unknown modifier '." + w + "'");
            }
        }
        Attempt best = null;
        List<IsaProblem> firstGateProblems = null;
        for (InstructionForm form : def.forms()) {
            Attempt a = attempt(form);
            if (a.stage == PASSED) {
                List<IsaProblem> gates = gates(form);
                if (gates.isEmpty()) {
                    return List.of();
                }
                if (firstGateProblems == null) {
                    firstGateProblems = gates;
                }
            } else if (best == null || a.stage > best.stage) {
                best = a;
            }
        }
        return firstGateProblems != null ? firstGateProblems : best.problems;
    }

    private Attempt attempt(InstructionForm form) {
        String name = form.name();
        if (typeWords.size() != form.types().size()) {
            return fail(form, TYPES, "Unexpected instruction types specified for '" + name + "'");
        }
        for (int i = 0; i < typeWords.size(); i++) {
            if (!form.types().get(i).types().contains(typeWords.get(i))) {
                return fail(form, TYPES, "Unexpected instruction types specified for '" + name + "'");
            }
        }
        String[] filled = new String[form.modifiers().size()];
        Set<String> seen = new HashSet<>();
        for (String w : modifierWords) {
            if (!seen.add(w)) {
                return fail(form, MODIFIERS, "Duplicate ." + w + " modifier");
            }
            int slot = -1;
            int taken = -1;
            for (int s = 0; s < filled.length; s++) {
                if (form.modifiers().get(s).accepts(w)) {
                    if (filled[s] == null) {
                        slot = s;
                        break;
                    }
                    taken = taken < 0 ? s : taken;
                }
            }
            if (slot < 0 && taken >= 0) {
                ModifierSlot ms = form.modifiers().get(taken);
                return fail(form, MODIFIERS, ms.kind().multiple(name, w, filled[taken]));
            }
            if (slot < 0) {
                return fail(form, MODIFIERS, table.kindOf(w).illegal(name, w));
            }
            filled[slot] = w;
        }
        for (int s = 0; s < filled.length; s++) {
            ModifierSlot ms = form.modifiers().get(s);
            if (filled[s] == null && !ms.optional()) {
                return fail(form, MODIFIERS, ms.kind().required(name, ms.words().get(0)));
            }
        }
        int vector = vectorLength();
        List<OperandUse> ops = use.operands();
        if (ops.size() < form.requiredOperands() || ops.size() > form.operands().size()) {
            return fail(form, OPERANDS, "Arguments mismatch for instruction '" + name + "'");
        }
        for (int i = 0; i < ops.size(); i++) {
            String problem = operandProblem(form, form.operands().get(i), ops.get(i), vector, i);
            if (problem != null) {
                return new Attempt(form, OPERANDS, List.of(new IsaProblem(problem, i)));
            }
        }
        return new Attempt(form, PASSED, List.of());
    }

    private static Attempt fail(InstructionForm form, int stage, String message) {
        return new Attempt(form, stage, PtxIsa.single(message));
    }

    /** The length given by a {@code .v2/.v4/.v8} modifier, 0 without one. */
    private int vectorLength() {
        for (String w : modifierWords) {
            if (table.kindOf(w) == ModifierKind.VECTOR && w.length() >= 2 && w.charAt(0) == 'v') {
                try {
                    return Integer.parseInt(w.substring(1));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private String operandProblem(InstructionForm form, OperandSpec spec, OperandUse op, int vector, int index) {
        String name = form.name();
        String mismatch = "Arguments mismatch for instruction '" + name + "'";
        PtxType type = spec.typeSlot() != 0 ? typeWords.get(slotIndex(form, spec.typeSlot())) : spec.fixedType();
        if (spec.doubleWidth() && type != null) {
            type = type.doubled().orElse(null);
        }
        switch (op.shape()) {
            case REGISTER, PREDICATE -> {
                boolean data = spec.kinds().contains(OperandKind.DATA);
                if (data && vector > 0) {
                    return "Argument vector size mismatch for instruction '" + name + "'";
                }
                if (!data && !spec.kinds().contains(OperandKind.REGISTER)
                        && !(spec.kinds().contains(OperandKind.PREDICATE) && isPredicate(op))) {
                    return mismatch;
                }
                return registerCompatible(type, op.declaredType(), spec.widening()) ? null : mismatch;
            }
            case VECTOR -> {
                if (spec.kinds().contains(OperandKind.VECTOR)) {
                    return registerCompatible(type, op.declaredType(), spec.widening()) ? null : mismatch;
                }
                if (!spec.kinds().contains(OperandKind.DATA)) {
                    return mismatch;
                }
                if (vector == 0 || op.vectorLength() != vector) {
                    return "Argument vector size mismatch for instruction '" + name + "'";
                }
                return registerCompatible(type, op.declaredType(), spec.widening()) ? null : mismatch;
            }
            case IMMEDIATE_INT -> {
                if (spec.kinds().contains(OperandKind.INT_IMMEDIATE)) {
                    return null;
                }
                boolean ok = spec.kinds().contains(OperandKind.TYPED_IMMEDIATE)
                        && (type == null || type.typeClass() != PtxType.TypeClass.FLOAT);
                return ok ? null : mismatch;
            }
            case IMMEDIATE_FLOAT -> {
                if (!spec.kinds().contains(OperandKind.TYPED_IMMEDIATE)) {
                    return mismatch;
                }
                return floatImmediateFits(type, op.declaredType()) ? null : mismatch;
            }
            case SPECIAL_REGISTER -> {
                if (spec.kinds().contains(OperandKind.SPECIAL_REGISTER)) {
                    return registerCompatible(type, op.declaredType(), true) ? null : mismatch;
                }
                return "Special register argument not allowed for instruction '" + name + "'";
            }
            case SYMBOL -> {
                if (spec.kinds().contains(OperandKind.SYMBOL)) {
                    return null;
                }
                if (spec.kinds().contains(OperandKind.REGISTER) || spec.kinds().contains(OperandKind.DATA)) {
                    return "Argument " + index + " of instruction '" + name + "': must be register";
                }
                return mismatch;
            }
            case ADDRESS -> {
                return spec.kinds().contains(OperandKind.ADDRESS) ? null : mismatch;
            }
            case LABEL -> {
                return spec.kinds().contains(OperandKind.LABEL) ? null : mismatch;
            }
            case SINK -> {
                return spec.kinds().contains(OperandKind.SINK) ? null : mismatch;
            }
            case PARAM_LIST -> {
                return spec.kinds().contains(OperandKind.PARAM_LIST) ? null : mismatch;
            }
            case TEXTURE_REF -> {
                return spec.kinds().contains(OperandKind.TEXTURE) ? null : mismatch;
            }
            default -> throw new AssertionError(op.shape());
        }
    }

    private static boolean isPredicate(OperandUse op) {
        return op.declaredType() == null || op.declaredType().equals("pred");
    }

    private static int slotIndex(InstructionForm form, char slot) {
        List<TypeSlot> types = form.types();
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i).name() == slot) {
                return i;
            }
        }
        throw new IllegalStateException("form " + form.source() + " has no type slot " + slot);
    }

    /** PTX's operand type rules (ISA manual, "Type Checking" and the relaxed rules of ld/st/cvt). */
    static boolean registerCompatible(PtxType want, String declared, boolean widening) {
        if (want == null || declared == null) {
            return true;
        }
        Optional<PtxType> got = PtxType.of(declared);
        if (got.isEmpty()) {
            return false;
        }
        PtxType have = got.get();
        if (have == want) {
            return true;
        }
        PtxType.TypeClass hc = have.typeClass();
        PtxType.TypeClass wc = want.typeClass();
        if (hc == PtxType.TypeClass.PREDICATE || wc == PtxType.TypeClass.PREDICATE) {
            return false;
        }
        if (have.bits() == want.bits()) {
            return hc == PtxType.TypeClass.BIT || wc == PtxType.TypeClass.BIT
                    || (have.isInteger() && want.isInteger());
        }
        if (widening && have.bits() > want.bits()) {
            return hc == PtxType.TypeClass.BIT
                    || (have.isInteger() && (want.isInteger() || wc == PtxType.TypeClass.BIT));
        }
        return false;
    }

    private static boolean floatImmediateFits(PtxType want, String literalType) {
        if (want == null) {
            return true;
        }
        if (want.typeClass() == PtxType.TypeClass.FLOAT) {
            return true;
        }
        if (want.typeClass() == PtxType.TypeClass.BIT) {
            int bits = "f32".equals(literalType) ? 32 : 64;
            return want.bits() == bits;
        }
        return false;
    }

    private List<IsaProblem> gates(InstructionForm form) {
        List<IsaProblem> out = new ArrayList<>();
        for (Gate g : form.gates()) {
            String subject;
            if (g.word().isEmpty()) {
                subject = "Feature '" + form.name() + "'";
            } else if (PtxType.of(g.word()).isPresent()) {
                if (!typeWords.contains(PtxType.of(g.word()).get())) {
                    continue;
                }
                subject = "Feature '" + form.name() + "." + g.word() + "'";
            } else {
                if (!modifierWords.contains(g.word())) {
                    continue;
                }
                subject = "Modifier '." + g.word() + "'";
            }
            if (!g.targets().isEmpty() && !g.targets().contains(target.name())) {
                String what = g.word().isEmpty() ? "Instruction '" + form.name() + "'" : subject;
                out.add(new IsaProblem(what + " not supported on .target '" + target.name() + "'", -1));
            }
            if (g.minSm() > target.sm()) {
                out.add(new IsaProblem(subject + " requires .target sm_" + g.minSm() + " or higher", -1));
            }
            if (g.minPtx() > ptx) {
                out.add(new IsaProblem(subject + " requires PTX ISA .version " + g.minPtx() / 10 + "." + g.minPtx() % 10
                        + " or later", -1));
            }
        }
        return out;
    }
}
