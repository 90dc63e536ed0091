package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.PtxType;

/**
 * What ptxas 13 checks of {@code atom} and {@code red} before and after their forms, in its words: the types each
 * operation takes, {@code .noftz} on the half-precision types (required) and on {@code .f32} (illegal), scalar
 * {@code .min}/{@code .max} of half-precision types (vector only), and the vector lengths of 32-bit element types.
 */
final class AtomicOperationRules {
    private AtomicOperationRules() {}

    /**
     * The types an operation takes and ptxas's list of them (its own spelling: "f16 or f16x2" without dots); null
     * when ptxas does not list them but finds the types unexpected.
     */
    private record OperationTypes(Set<PtxType> types, String wording) {}

    private static final Set<String> OPCODES = Set.of("atom", "red");
    private static final Set<PtxType> HALVES = EnumSet.of(PtxType.F16, PtxType.F16X2, PtxType.BF16, PtxType.BF16X2);
    private static final Set<String> ARITHMETIC = Set.of("add", "min", "max");
    private static final Set<String> SPACES = Set.of("global", "shared", "shared::cta", "shared::cluster");
    /** The first SM whose ptxas names scalar half-precision min/max, before asking for a vector (Target ISA notes). */
    private static final int HALF_MIN_MAX_SM = 90;

    private static final OperationTypes BITWISE = new OperationTypes(EnumSet.of(PtxType.B32, PtxType.B64),
            ".b32 or .b64");
    private static final OperationTypes MIN_MAX = new OperationTypes(EnumSet.of(PtxType.U32, PtxType.S32,
            PtxType.U64, PtxType.S64, PtxType.F16, PtxType.F16X2, PtxType.BF16, PtxType.BF16X2),
            ".u32 or .s32 or .u64 or .s64 or .f16 or .f16x2 or .bf16 or .bf16x2");
    private static final OperationTypes INC_DEC = new OperationTypes(EnumSet.of(PtxType.U32), ".u32");
    private static final Map<String, OperationTypes> OPERATION_TYPES = Map.of(
            "add", new OperationTypes(EnumSet.of(PtxType.U32, PtxType.S32, PtxType.U64, PtxType.F64, PtxType.F16,
                    PtxType.F16X2, PtxType.F32, PtxType.BF16, PtxType.BF16X2),
                    ".u32 or .s32 or .u64 or .f64 or f16 or f16x2 or .f32 or .bf16 or .bf16x2"),
            "min", MIN_MAX, "max", MIN_MAX, "inc", INC_DEC, "dec", INC_DEC,
            "and", BITWISE, "or", BITWISE, "xor", BITWISE,
            "exch", new OperationTypes(EnumSet.of(PtxType.B32, PtxType.B64, PtxType.B128), ".b32 or .b64 or .b128"),
            "cas", new OperationTypes(EnumSet.of(PtxType.B16, PtxType.B32, PtxType.B64, PtxType.B128), null));

    /**
     * The problems of {@code use}: those of its forms ({@code forms}) with ptxas's own atom/red checks around them;
     * only the forms' for other instructions.
     */
    static List<IsaProblem> check(InstructionUse use, TargetInfo target, Supplier<List<IsaProblem>> forms) {
        if (!OPCODES.contains(use.opcode())) {
            return forms.get();
        }
        String op = null;
        PtxType type = null;
        int vector = 0;
        String space = null;
        for (String w : use.modifiers()) {
            Optional<PtxType> t = PtxType.of(w);
            if (t.isPresent()) {
                type = type == null ? t.get() : type;
            } else if (op == null && OPERATION_TYPES.containsKey(w)) {
                op = w;
            } else if (w.matches("v[248]")) {
                vector = w.charAt(1) - '0';
            } else if (space == null && SPACES.contains(w)) {
                space = w;
            }
        }
        if (op == null || type == null || op.equals("cas") && !use.opcode().equals("atom")) {
            return forms.get();
        }
        String name = use.opcode();
        OperationTypes allowed = OPERATION_TYPES.get(op);
        if (!allowed.types().contains(type)) {
            return PtxIsa.single(allowed.wording() == null ? "Unexpected instruction types specified for '" + name + "'"
                    : "Operation ." + op + " requires " + allowed.wording() + " type for instruction '" + name + "'");
        }
        List<IsaProblem> out = new ArrayList<>();
        boolean noftz = use.modifiers().contains("noftz");
        boolean scalarMinMax = vector == 0 && HALVES.contains(type) && (op.equals("min") || op.equals("max"));
        if (ARITHMETIC.contains(op) && HALVES.contains(type) && !noftz) {
            out.add(problem("'.noftz' modifier required for instruction '" + name + "' with type '." + type.ptxName()
                    + "'"));
            if (vector == 0 && !scalarMinMax) {
                return out; // the scalar forms require it too: ptxas says it once
            }
        }
        if (type == PtxType.F32 && noftz) {
            out.add(problem("Illegal modifier '.noftz' for instruction '" + name + "'"));
            if (vector == 0) {
                return out; // the vector form's operand mismatch is no news to ptxas
            }
        }
        if (scalarMinMax) {
            String scalar = name + "." + op + "." + type.ptxName()
                    + (space == null ? " with generic state space" : "." + space);
            if (target.sm() < HALF_MIN_MAX_SM) {
                out.add(problem("Instruction '" + scalar + "' requires .target sm_" + HALF_MIN_MAX_SM + " or higher"));
            }
            out.add(problem("Vector modifier required for instruction '" + scalar + "'"));
            return out;
        }
        for (IsaProblem p : forms.get()) {
            if (out.stream().noneMatch(o -> o.message().equals(p.message()))) {
                out.add(p);
            }
        }
        if (vector == 8 && type.bits() == 32 && ARITHMETIC.contains(op)) {
            out.add(problem("Only .v2 or .v4 vector modifier supported with type ." + type.ptxName() + " on ." + op
                    + " operation for " + name + " instruction with vector types"));
            out.add(problem("Vector type too large, exceeds 128 bit limit"));
        }
        return out;
    }

    private static IsaProblem problem(String message) {
        return new IsaProblem(message, -1);
    }
}
