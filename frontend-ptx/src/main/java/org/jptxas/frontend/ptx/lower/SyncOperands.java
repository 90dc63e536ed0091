package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Operand helpers shared by the synchronisation, atomic and warp-level lowerers: predicate sources with their
 * {@code !}, values forced into registers, and the PTX type word of an instruction.
 */
final class SyncOperands {
    /** The full warp: a member mask equal to this needs no WARPSYNC. */
    static final long FULL_MASK = 0xffffffffL;

    private SyncOperands() {}

    /** A predicate source ({@code %p}, {@code !%p}, or a constant 0/1 as PT/!PT). */
    static Src predicate(LoweringContext cx, Operand operand) {
        if (operand instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT) {
            return predicate(cx, u.operand()).inverted();
        }
        if (operand instanceof Expr.IntLit lit) {
            return lit.value() != 0 ? Src.of(Reg.PT) : Src.of(Reg.PT).inverted();
        }
        Src s = cx.src(operand, PtxType.PRED);
        if (s.value() instanceof Imm imm) {
            return imm.bits() != 0 ? Src.of(Reg.PT) : Src.of(Reg.PT).inverted();
        }
        return s;
    }

    /**
     * The value of {@code operand} in a register of {@code comps} components: a register source as is, an
     * immediate moved into a fresh register first (memory and warp instructions take their data in registers).
     */
    static Reg register(LoweringContext cx, Operand operand, PtxType type) {
        return register(cx, cx.src(operand, type), type.sizeBytes() == 16 ? 4 : type.sizeBytes() > 4 ? 2 : 1);
    }

    static Reg register(LoweringContext cx, Src s, int comps) {
        if (s.value() instanceof Reg r && !s.hasModifiers()) {
            return r;
        }
        Reg r = cx.newReg(RegFile.R, comps);
        if (comps == 4) { // a .b128 constant: its 64-bit literal zero-extended, as ptxas does
            MovLowerer.move(cx, r, s, PtxType.B128);
        } else if (comps == 2) { // a 64-bit constant: MOV has no 64-bit form, so one MOV per half
            MovLowerer.move(cx, r, s, PtxType.B64);
        } else {
            cx.emit("MOV", List.of(), List.of(r), List.of(s));
        }
        return r;
    }

    /** A source that may stay an immediate (lane, clamp, barrier ids); zero reads as RZ, as ptxas prints it. */
    static Src registerOrImmediate(LoweringContext cx, Operand operand, PtxType type) {
        Src s = cx.src(operand, type);
        if (s.value() instanceof Imm imm && imm.bits() == 0) {
            return Src.of(Reg.RZ);
        }
        return s;
    }

    /** The constant value of an operand when it is an immediate, else null. */
    static Long constant(LoweringContext cx, Operand operand, PtxType type) {
        Long bits = evaluate(operand);
        if (bits == null) {
            return null;
        }
        return type.sizeBytes() == 8 ? bits : bits & 0xffffffffL;
    }

    private static Long evaluate(Operand operand) {
        if (operand instanceof Expr.IntLit lit) {
            return lit.value();
        }
        if (operand instanceof Expr.Unary u) {
            Long inner = evaluate(u.operand());
            if (inner == null) {
                return null;
            }
            return switch (u.op()) {
                case NEG -> -inner;
                case COMPLEMENT -> ~inner;
                case PLUS -> inner;
                case NOT -> inner == 0 ? 1L : 0L;
            };
        }
        return null;
    }

    /** The instruction's data type: the last modifier that names a PTX type. */
    static PtxType type(Instruction insn) {
        List<String> mods = insn.modifiers();
        for (int i = mods.size() - 1; i >= 0; i--) {
            var t = PtxType.fromName(mods.get(i));
            if (t.isPresent()) {
                return t.get();
            }
        }
        return null;
    }

    /** Whether the instruction is written with any of {@code words} as a modifier. */
    static boolean hasAny(Instruction insn, String... words) {
        for (String w : words) {
            if (insn.hasModifier(w)) {
                return true;
            }
        }
        return false;
    }

    /** The first of {@code words} the instruction carries, or {@code fallback}. */
    static String first(Instruction insn, String fallback, String... words) {
        for (String w : words) {
            if (insn.hasModifier(w)) {
                return w;
            }
        }
        return fallback;
    }
}
