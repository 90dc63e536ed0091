package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.Exclusion;
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
 * instruction types, then whether the form takes every modifier word at all, then operands, then the structure of
 * the modifiers (one per slot, required ones present, exclusions); a form that passes all decides the gates. When no
 * form passes, the problems of the form that got furthest are reported (the first such form on a tie), which
 * reproduces ptxas's choice of message: {@code add.rn.s32} fails the float forms on types and the integer form on
 * modifiers, so it is "Illegal rounding modifier".
 */
final class FormMatcher {
    private static final int OTHER_INSTRUCTION = -1;
    private static final int TYPES = 0;
    private static final int MODIFIER_WORDS = 1;
    private static final int OPERANDS = 2;
    private static final int MODIFIERS = 3;
    private static final int PASSED = 4;

    private final PtxInstructionSet table;
    private final InstructionDef def;
    private final InstructionUse use;
    private final int ptx;
    private final TargetInfo target;
    private final List<PtxType> typeWords = new ArrayList<>();
    private final List<String> modifierWords = new ArrayList<>();
    /** Whether this PTX version dropped some form of the instruction (vote without .sync). */
    private boolean retiredForms;

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
        Map<String, Integer> seen = new HashMap<>();
        for (String w : modifierWords) {
            // ptxas lets .sat be written twice; a word several slots of one form take (mma's A and B layouts,
            // row.row) may be written once per slot; once is within any bound, so only a repeated word counts slots
            int times = seen.merge(w, 1, Integer::sum);
            if (times > 1 && times > Math.max(slotsTaking(w), 1) && !w.equals("sat")) {
                // ptxas counts scopes, not words: fence.sc.gpu.gpu is a second scope
                return PtxIsa.single(table.kindOf(w) == ModifierKind.SCOPE ? ModifierKind.SCOPE.multiple(use.opcode(),
                        w, w) : "Duplicate ." + w + " modifier");
            }
        }
        // each word once, a word of several slots once per slot it was written for
        Map<String, Integer> kept = new HashMap<>();
        List<String> unique = new ArrayList<>();
        for (String w : modifierWords) {
            int times = kept.merge(w, 1, Integer::sum);
            if (times == 1 || times <= Math.max(slotsTaking(w), 1)) {
                unique.add(w);
            }
        }
        modifierWords.clear();
        modifierWords.addAll(unique);
        Attempt best = null;
        List<IsaProblem> firstGateProblems = null;
        InstructionForm passedFirst = null;
        // known before any form is tried: the message for a missing .sync names the retired form wherever it stands
        retiredForms = def.forms().stream().anyMatch(this::retired);
        for (InstructionForm form : def.forms()) {
            if (retired(form)) {
                continue;
            }
            Attempt a = attempt(form);
            if (a.stage == PASSED) {
                List<IsaProblem> gates = gates(form);
                if (gates.isEmpty()) {
                    return List.of();
                }
                if (firstGateProblems == null) {
                    firstGateProblems = gates;
                    passedFirst = form;
                }
            } else if (best == null || a.stage > best.stage) {
                best = a;
            }
        }
        if (firstGateProblems != null) {
            // a form of the oldest target speaks in its own gates' order (fence.proxy's .alias first)
            List<IsaProblem> instructionGate = instructionGate(passedFirst);
            return instructionGate.isEmpty() || ownSm(passedFirst) == ownSm(oldestForm()) ? firstGateProblems
                    : instructionGate;
        }
        if (best != null && gateSpeaksBefore(best)) {
            List<IsaProblem> instructionGate = instructionGate(best.form);
            if (!instructionGate.isEmpty()) {
                return instructionGate;
            }
        }
        return best != null ? best.problems
                : PtxIsa.single("Unexpected instruction types specified for '" + use.opcode() + "'");
    }

    /**
     * ptxas checks an instruction none of whose forms exists on the target (mbarrier.arrive, cp.async, redux below
     * sm_80) against the target before its modifiers: "Feature 'mbarrier.arrive' requires .target sm_80 or higher"
     * comes before an illegal modifier and before the gates of its later forms (the sm_90 count argument). The
     * message names {@code chosen} when it needs the oldest target, else the first form needing it.
     */
    private List<IsaProblem> instructionGate(InstructionForm chosen) {
        InstructionForm oldest = oldestForm();
        if (oldest == null || ownSm(oldest) <= target.sm()) {
            return List.of();
        }
        int oldestSm = ownSm(oldest);
        if (chosen != null && ownSm(chosen) == oldestSm) {
            oldest = chosen; // dp2a.lo is named by its own name
        }
        String subject = oldest.subject().isEmpty() ? "Feature '" + oldest.name() + "'" : oldest.subject();
        return PtxIsa.single(subject + " requires .target sm_" + oldestSm + " or higher");
    }

    /** The first of the instruction's current forms that exists on the oldest target, or null when all are retired. */
    private InstructionForm oldestForm() {
        InstructionForm oldest = null;
        for (InstructionForm form : def.forms()) {
            if (!retired(form) && (oldest == null || ownSm(form) < ownSm(oldest))) {
                oldest = form;
            }
        }
        return oldest;
    }

    /** The oldest target the form exists on, whatever words are written. */
    private static int ownSm(InstructionForm form) {
        int sm = 0;
        for (Gate g : form.gates()) {
            if (g.word().isEmpty()) {
                sm = Math.max(sm, g.minSm());
            }
        }
        return sm;
    }

    /**
     * ptxas matches types and operands before it asks for the target: "Unexpected instruction types" and "Arguments
     * mismatch" come first, an illegal or misplaced modifier and an immediate result ("Result register required")
     * after the instruction's gate.
     */
    private static boolean gateSpeaksBefore(Attempt failed) {
        if (failed.stage == MODIFIER_WORDS || failed.stage == MODIFIERS) {
            return true;
        }
        return failed.stage == OPERANDS && !failed.problems.isEmpty()
                && failed.problems.get(0).message().startsWith("Result register required");
    }

    /** The most modifier slots of one form of the instruction that take {@code word}. */
    private int slotsTaking(String word) {
        long most = 0;
        for (InstructionForm form : def.forms()) {
            most = Math.max(most, form.modifiers().stream().filter(m -> m.accepts(word)).count());
        }
        return (int) most;
    }

    /** A form that later PTX versions dropped (vote without .sync, mad.f32 without rounding) does not exist for them. */
    private boolean retired(InstructionForm form) {
        for (Gate g : form.gates()) {
            if (g.word().isEmpty() && g.maxPtx() != 0 && ptx > g.maxPtx() && target.sm() >= g.retiredFromSm()) {
                return true;
            }
        }
        return false;
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
        for (ModifierSlot m : form.modifiers()) {
            if (m.kind() == ModifierKind.LEVEL && m.words().stream().noneMatch(modifierWords::contains)) {
                return missingLevel(form, m);
            }
            if (m.optional() || !m.group().isEmpty() || m.words().stream().anyMatch(modifierWords::contains)) {
                continue;
            }
            if (m.words().contains("sync") && retiredForms) {
                return fail(form, MODIFIER_WORDS, "Instruction '" + use.opcode() + "' without '.sync' is not supported"
                        + " on .target sm_70 and higher from PTX ISA version 6.4");
            }
            if (m.words().contains("sync") || m.words().contains("aligned")) {
                return fail(form, MODIFIER_WORDS, "." + m.words().get(0) + " modifier required for instruction '"
                        + use.opcode() + "'");
            }
            // a required word of the form's own (mul's .lo, mma's .sp) names the form: without it the use is
            // another instruction, even less like it than one with other types
            return fail(form, OTHER_INSTRUCTION, "Unexpected instruction types specified for '" + use.opcode() + "'");
        }
        boolean comparisons = form.modifiers().stream().anyMatch(m -> m.kind() == ModifierKind.COMPARISON);
        for (String w : modifierWords) {
            if (comparisons && table.kindOf(w) == ModifierKind.COMPARISON) {
                continue; // ptxas matches the operands before it checks the comparison against the type
            }
            if (form.modifiers().stream().noneMatch(m -> m.accepts(w))) {
                return fail(form, MODIFIER_WORDS, table.kindOf(w).illegal(name, w));
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
        for (int i = 0; i < form.operands().size(); i++) {
            String tie = form.operands().get(i).presentWith();
            if (tie.isEmpty()) {
                continue;
            }
            if (modifierWords.contains(tie) && ops.size() <= i) {
                return fail(form, OPERANDS, "Arguments mismatch for instruction '" + name + "'");
            }
            if (!modifierWords.contains(tie) && ops.size() > i) {
                return fail(form, OPERANDS, "." + tie + " modifier required for instruction '" + name + "' with "
                        + ops.size() + " arguments");
            }
        }
        String modifierProblem = modifierStructure(form);
        if (modifierProblem != null) {
            return fail(form, MODIFIERS, modifierProblem);
        }
        return new Attempt(form, PASSED, List.of());
    }

    /**
     * The checks ptxas makes once the operands matched: one word per slot, required slots filled, words that exclude
     * or need each other, the vector size limit.
     */
    private String modifierStructure(InstructionForm form) {
        String name = form.name();
        String[] filled = new String[form.modifiers().size()];
        for (String w : modifierWords) {
            if (form.modifiers().stream().noneMatch(m -> m.accepts(w))) {
                return "Mismatch between instruction type and comparison qualifier";
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
            if (slot < 0) {
                ModifierKind kind = form.modifiers().get(taken).kind();
                return kind == ModifierKind.PRIORITY ? kind.multiple(name, shown(w), shown(filled[taken]))
                        : kind.multiple(name, w, filled[taken]);
            }
            filled[slot] = w;
        }
        for (int s = 0; s < filled.length; s++) {
            ModifierSlot ms = form.modifiers().get(s);
            if (filled[s] == null && !ms.optional()) {
                ModifierKind partner = ms.kind() == ModifierKind.ORDER ? ModifierKind.SCOPE
                        : ms.kind() == ModifierKind.SCOPE ? ModifierKind.ORDER : null;
                String needing = partner == null ? null
                        : modifierWords.stream().filter(w -> table.kindOf(w) == partner).findFirst().orElse(null);
                if (partner == null) {
                    return ms.kind().required(name, ms.words().get(0));
                }
                return needing != null ? ms.kind().required(name, ms.words().get(0), needing)
                        : ModifierKind.OTHER.required(name, ms.words().get(0));
            }
        }
        for (Exclusion x : form.exclusions()) {
            for (String a : x.words()) {
                if (!written(a)) {
                    continue;
                }
                if (x.requires()) {
                    if (x.against().stream().noneMatch(this::written)) {
                        String need = x.against().get(0);
                        return table.kindOf(need) == ModifierKind.STATE_SPACE
                                ? "Modifier '." + a + "' requires ." + need + " space"
                                : "Modifier '." + a + "' requires modifier '." + need + "'"
                                        + (x.namesInstruction() ? " for instruction '" + name + "'" : "");
                    }
                    continue;
                }
                for (String b : x.against()) {
                    if (written(b)) {
                        return conflict(form, x, a, b);
                    }
                }
            }
        }
        int vector = vectorLength();
        if (vector > 0 && form.maxVectorBits() > 0 && !typeWords.isEmpty()
                && vector * typeWords.get(typeWords.size() - 1).bits() > form.maxVectorBits()) {
            return "Vector type too large, exceeds " + form.maxVectorBits() + " bit limit";
        }
        return null;
    }

    /** ptxas's words for {@code a} written with {@code b} when exclusion {@code x} keeps them apart. */
    private String conflict(InstructionForm form, Exclusion x, String a, String b) {
        String name = form.name();
        return switch (x.wording()) {
            case ILLEGAL -> form.modifiers().stream().filter(m -> m.accepts(a)).map(ModifierSlot::kind).findFirst()
                    .orElse(table.kindOf(a)).illegal(name, a);
            case FEATURE_SPACE -> "State space incorrect for feature '" + x.feature() + "'";
            case CONFLICT -> table.kindOf(b) == ModifierKind.STATE_SPACE
                    ? "Modifier '." + shown(a) + "' cannot be applied to '." + b + "' space"
                            + (x.namesInstruction() ? " for instruction '" + name + "'" : "")
                    : "Modifier '." + shown(a) + "' cannot be combined with modifier '." + shown(b) + "'";
        };
    }

    private static final java.util.regex.Pattern SHAPE = java.util.regex.Pattern.compile("m\\d+n(\\d+)k\\d+");

    /** The N of the written {@code .mXnNkK} shape, 0 without one. */
    private int shapeN() {
        for (String w : modifierWords) {
            java.util.regex.Matcher m = SHAPE.matcher(w);
            if (m.matches()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return 0;
    }

    /** A modifier as ptxas names it in messages: eviction priorities without their cache level. */
    private static String shown(String word) {
        return word.matches("L[12]::(evict_\\w+|no_allocate)") ? word.substring(4) : word;
    }

    /** Whether a modifier or type word is written. */
    private boolean written(String word) {
        return modifierWords.contains(word) || typeWords.stream().anyMatch(t -> t.ptxName().equals(word));
    }

    /**
     * membar without a level it takes: every word no slot of the form takes is illegal, and unless one of them is a
     * scope (which ptxas files as the level) the level is also missing.
     */
    private Attempt missingLevel(InstructionForm form, ModifierSlot level) {
        List<IsaProblem> problems = new ArrayList<>();
        boolean scopeWritten = false;
        for (String w : modifierWords) {
            scopeWritten |= table.kindOf(w) == ModifierKind.SCOPE;
            if (form.modifiers().stream().noneMatch(m -> m.accepts(w))) {
                problems.add(new IsaProblem(ModifierKind.LEVEL.illegal(form.name(), w), -1));
            }
        }
        if (!scopeWritten) {
            problems.add(new IsaProblem(level.kind().required(form.name(), level.words().get(0)), -1));
        }
        return new Attempt(form, MODIFIER_WORDS, problems);
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
        if (spec.kinds().equals(EnumSet.of(OperandKind.BRANCH_TARGETS)) && op.shape() != OperandShape.BRANCH_TARGETS
                && op.shape() != OperandShape.LABEL) {
            // brx.idx given a register, variable or immediate: ptxas asks for the table (a plain label mismatches)
            return "Label with '.branchtargets' directive expected for argument " + index + " of instruction '" + name
                    + "'";
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
                return registerCompatible(type, op.declaredType(), spec.widening(), slotTyped(spec)) ? null : mismatch;
            }
            case VECTOR -> {
                if (op.vectorLength() == 1 && vector == 0 && !spec.kinds().contains(OperandKind.VECTOR)) {
                    // ptxas takes a one-element vector {%r} where a scalar register goes
                    OperandUse scalar = new OperandUse(OperandShape.REGISTER, op.declaredType(), 0);
                    return operandProblem(form, spec, scalar, vector, index);
                }
                if (spec.kinds().contains(OperandKind.VECTOR)) {
                    int length = spec.shapeDivisor() != 0 ? shapeN() / spec.shapeDivisor() : spec.vectorLength();
                    if (length != 0 && op.vectorLength() != length) {
                        return "Argument vector size mismatch for instruction '" + name + "'";
                    }
                    return registerCompatible(type, op.declaredType(), spec.widening(), slotTyped(spec)) ? null : mismatch;
                }
                if (!spec.kinds().contains(OperandKind.DATA)) {
                    return mismatch;
                }
                if (vector == 0 || op.vectorLength() != vector) {
                    return "Argument vector size mismatch for instruction '" + name + "'";
                }
                return registerCompatible(type, op.declaredType(), spec.widening(), slotTyped(spec)) ? null : mismatch;
            }
            case IMMEDIATE_INT, IMMEDIATE_FLOAT -> {
                if (index == 0 && isResult(spec)) {
                    // ptxas first matches the immediate's type; only a fitting one is "not a register"
                    boolean fits = op.shape() == OperandShape.IMMEDIATE_INT
                            ? type == null || type.typeClass() != PtxType.TypeClass.FLOAT
                            : floatImmediateFits(type, op.declaredType());
                    return fits ? "Result register required for instruction '" + name + "'" : mismatch;
                }
                if (op.shape() == OperandShape.IMMEDIATE_FLOAT) {
                    if (!spec.kinds().contains(OperandKind.TYPED_IMMEDIATE)) {
                        return mismatch;
                    }
                    return floatImmediateFits(type, op.declaredType()) ? null : mismatch;
                }
                boolean ok = spec.kinds().contains(OperandKind.INT_IMMEDIATE)
                        || (spec.kinds().contains(OperandKind.TYPED_IMMEDIATE)
                                && (type == null || type.typeClass() != PtxType.TypeClass.FLOAT));
                return ok ? valueProblem(name, spec, op, index) : mismatch;
            }
            case SPECIAL_REGISTER -> {
                if (spec.kinds().contains(OperandKind.SPECIAL_REGISTER)) {
                    return registerCompatible(type, op.declaredType(), true, slotTyped(spec)) ? null : mismatch;
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
            case BRANCH_TARGETS -> {
                return spec.kinds().contains(OperandKind.BRANCH_TARGETS) ? null : mismatch;
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

    /** ptxas's checks of an immediate's value (cp.async sizes, barrier thread counts). */
    private static String valueProblem(String name, OperandSpec spec, OperandUse op, int index) {
        if (op.immediateValue().isEmpty()) {
            return null;
        }
        long v = op.immediateValue().getAsLong();
        if (!spec.values().isEmpty() && !spec.values().contains(v)) {
            StringBuilder expected = new StringBuilder();
            for (Long allowed : spec.values()) {
                expected.append(expected.length() == 0 ? "" : " or ").append(allowed == 0 ? "zero" : allowed.toString());
            }
            return "Argument " + index + " of instruction '" + name + "': unexpected value '" + v
                    + "', expected to be " + expected;
        }
        if (spec.max() != 0 && (v < spec.min() || v > spec.max())) {
            if (name.startsWith("bar")) {
                // bar.sync, barrier.red, ...: ptxas names the operand and prints the value unsigned
                return "Barrier number '" + Long.toUnsignedString(v) + "' out of range, expected to be in range ["
                        + spec.min() + ".." + spec.max() + "]";
            }
            return "Argument " + index + " of instruction '" + name + "': value '" + v
                    + "' out of range, expected to be in range [" + spec.min() + ".." + spec.max() + "]";
        }
        if (spec.multipleOf() > 0 && v % spec.multipleOf() != 0) {
            return spec.warpMultiple() ? "Number of threads participating in barrier must be in multiple of warp size"
                    : "Argument " + index + " of instruction '" + name + "': unexpected value '" + v
                            + "', expected to be multiple of " + spec.multipleOf();
        }
        return null;
    }

    /** A first operand that only takes registers: the instruction's result. */
    private static boolean isResult(OperandSpec spec) {
        return !spec.kinds().contains(OperandKind.TYPED_IMMEDIATE) && !spec.kinds().contains(OperandKind.INT_IMMEDIATE)
                && (spec.kinds().contains(OperandKind.REGISTER) || spec.kinds().contains(OperandKind.DATA)
                        || spec.kinds().contains(OperandKind.PREDICATE));
    }

    /** Whether the operand's register is checked as one of an instruction type (its slot's, or a slot-like fixed one). */
    private static boolean slotTyped(OperandSpec spec) {
        return spec.typeSlot() != 0 || spec.slotLike();
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
    static boolean registerCompatible(PtxType want, String declared, boolean widening, boolean fromSlot) {
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
        if (!fromSlot && wc == PtxType.TypeClass.BIT && hc == PtxType.TypeClass.FLOAT) {
            return false; // an operand of fixed bit type (bar.warp.sync's mask, cvt.tf32's result) takes no float register
        }
        if (fromSlot && have == PtxType.F16X2 && want.bits() == 32 && (want.isInteger() || wc == PtxType.TypeClass.BIT)) {
            return true; // ptxas takes .f16x2 registers as 32-bit integers where the instruction type decides
        }
        if (have.bits() == want.bits()) {
            return hc == PtxType.TypeClass.BIT || wc == PtxType.TypeClass.BIT
                    || (have.isInteger() && want.isInteger());
        }
        if (widening && have.bits() > want.bits() && want != PtxType.BF16) {
            // ld/st/cvt: a bit-size instruction type takes any wider register, other types a wider bit register,
            // integer types also a wider integer register.
            return wc == PtxType.TypeClass.BIT || hc == PtxType.TypeClass.BIT
                    || (have.isInteger() && want.isInteger());
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
                subject = form.subject().isEmpty() ? "Feature '" + form.name() + "'" : form.subject();
            } else if (PtxType.of(g.word()).isPresent()) {
                if (!typeWords.contains(PtxType.of(g.word()).get())) {
                    continue;
                }
                subject = g.subject().isEmpty() ? "Feature '" + form.name() + "." + g.word() + "'" : g.subject();
            } else {
                if (!modifierWords.contains(g.word())) {
                    continue;
                }
                subject = (g.subject().isEmpty() ? "Modifier '." + g.word() + "'" : g.subject())
                        + (g.namesInstruction() ? " on '" + form.name() + "'" : "");
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
