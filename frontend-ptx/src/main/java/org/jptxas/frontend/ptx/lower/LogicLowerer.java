package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code and}, {@code or}, {@code xor}, {@code not}, {@code cnot}, {@code lop3}: LOP3.LUT on registers (per half for
 * 64 bits), PLOP3.LUT on predicates. Shapes: {@code LOP3.LUT p, d, a, b, c, lut, q} (p = PT, q = !PT) and
 * {@code PLOP3.LUT p, q, a, b, c, lut, lut2}.
 */
@AutoService(InstructionLowerer.class)
public final class LogicLowerer implements InstructionLowerer {
    /** LUT bytes of the three inputs: a = 0xf0, b = 0xcc, c = 0xaa. */
    static final int A = 0xf0;
    static final int B = 0xcc;
    static final int C = 0xaa;

    @Override
    public Set<String> opcodes() {
        return Set.of("and", "or", "xor", "not", "cnot", "lop3");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = Ptx.type(insn);
        if (insn.opcode().equals("lop3")) {
            lop3(insn, cx, t);
            return;
        }
        if (insn.opcode().equals("cnot")) {
            Reg d = cx.dst(Ptx.op(insn, 0), t);
            Src a = cx.src(Ptx.op(insn, 1), t);
            Reg p = Ptx.pred(cx);
            Compare.compare(cx, null, p, Reg.PT, "EQ", t, a, Ptx.imm(0), Ptx.pt(), "AND");
            Compare.select(cx, d, Ptx.imm(1), Ptx.imm(0), Src.of(p), t);
            return;
        }
        boolean unary = insn.opcode().equals("not");
        int lut = switch (insn.opcode()) {
            case "and" -> A & B;
            case "or" -> A | B;
            case "xor" -> A ^ B;
            default -> ~A & 0xff;
        };
        if (t == PtxType.PRED) {
            Reg p = cx.dst(Ptx.op(insn, 0), t);
            Src a = Compare.predSrc(cx, Ptx.op(insn, 1));
            Src b = unary ? Ptx.pt() : Compare.predSrc(cx, Ptx.op(insn, 2));
            if (a.value() == Reg.PT && b.value() == Reg.PT) {
                // both constant (and.pred p, 1, 0): the result is a constant, set as mov.pred sets one
                int index = (a.not() ? 0 : 4) | (b.not() ? 0 : 2) | 1;
                int v = (lut >> index & 1) != 0 ? 0xff : 0x00;
                cx.emit("PLOP3", List.of("LUT"), List.of(p, Reg.PT),
                        List.of(Ptx.pt(), Ptx.pt(), Ptx.pt(), Ptx.imm(v), Ptx.imm(0)));
                return;
            }
            cx.emit("PLOP3", List.of("LUT"), List.of(p, Reg.PT), List.of(a, b, Ptx.pt(), Ptx.imm(lut), Ptx.imm(0)));
            return;
        }
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = unary ? Ptx.rz() : cx.src(Ptx.op(insn, 2), t);
        for (int k = 0; k < d.width(); k++) {
            lop(cx, d.width() == 1 ? d : d.component(k), Ptx.part(a, k), Ptx.part(b, k), Ptx.rz(), lut);
        }
    }

    /** {@code d = lut(a, b, c)}, putting an immediate in the second slot as ptxas does. */
    static void lop(LoweringContext cx, Reg d, Src a, Src b, Src c, int lut) {
        if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
            Src x = a;
            a = b;
            b = x;
            lut = swapAB(lut);
        }
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, d), List.of(a, b, c, Ptx.imm(lut), Ptx.notPt()));
    }

    /** The LUT with inputs a and b exchanged. */
    static int swapAB(int lut) {
        int out = 0;
        for (int i = 0; i < 8; i++) {
            int a = (i >> 2) & 1;
            int b = (i >> 1) & 1;
            int c = i & 1;
            int j = (b << 2) | (a << 1) | c;
            if (((lut >> j) & 1) != 0) {
                out |= 1 << i;
            }
        }
        return out;
    }

    private void lop3(Instruction insn, LoweringContext cx, PtxType t) throws CompilationException {
        if (insn.operands().size() == 6 && insn.operands().get(0) instanceof Operand.Pair pair
                && (insn.hasModifier("and") || insn.hasModifier("or"))) {
            lop3Boolean(insn, cx, t, pair);
            return;
        }
        if (insn.operands().size() != 5 || !(insn.operands().get(4) instanceof org.jptxas.frontend.ptx.ast.Expr)) {
            throw cx.unsupported(null);
        }
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = cx.src(Ptx.op(insn, 3), t);
        Src l = cx.src(Ptx.op(insn, 4), PtxType.B32);
        if (!(l.value() instanceof Imm m)) {
            throw cx.unsupported(null);
        }
        int lut = (int) m.bits() & 0xff;
        if (c.value() instanceof Imm && !(b.value() instanceof Imm)) {
            cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, d), List.of(a, b, c, Ptx.imm(lut), Ptx.notPt()));
            return;
        }
        lop(cx, d, a, b, c, lut);
    }

    /**
     * {@code lop3.{and,or}.b32 d|p, a, b, c, lut, q}: the LOP3 into d, then p = (d != 0) and/or q as one ISETP
     * (ptxas folds both into LOP3.LUT[.PAND] P, R, ...; the ISETP computes the same predicate).
     */
    private void lop3Boolean(Instruction insn, LoweringContext cx, PtxType t, Operand.Pair pair)
            throws CompilationException {
        Src l = cx.src(Ptx.op(insn, 4), PtxType.B32);
        if (!(l.value() instanceof Imm m)) {
            throw cx.unsupported(null);
        }
        Reg d = pair.first() instanceof Operand.Sink ? Ptx.r32(cx) : cx.dst(pair.first(), t);
        Reg p = cx.dst(pair.second(), PtxType.PRED);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = cx.src(Ptx.op(insn, 3), t);
        int lut = (int) m.bits() & 0xff;
        if (c.value() instanceof Imm && !(b.value() instanceof Imm)) {
            cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, d), List.of(a, b, c, Ptx.imm(lut), Ptx.notPt()));
        } else {
            lop(cx, d, a, b, c, lut);
        }
        Operand qo = Ptx.op(insn, 5);
        Src q = qo instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT
                ? cx.src(u.operand(), PtxType.PRED).inverted() : cx.src(qo, PtxType.PRED);
        if (q.value() instanceof Imm k) {
            // a constant q: PT or !PT
            q = k.bits() != 0 ? Src.of(Reg.PT) : Ptx.notPt();
        }
        cx.emit("ISETP", List.of("NE", "U32", insn.hasModifier("and") ? "AND" : "OR"), List.of(p, Reg.PT),
                List.of(Src.of(d), Ptx.rz(), q));
    }
}
