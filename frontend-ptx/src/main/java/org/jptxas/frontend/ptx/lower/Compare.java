package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code setp}, {@code set}, {@code selp}, {@code slct}: ISETP/FSETP/DSETP with the {@code .and/.or/.xor} combining
 * predicate (64-bit integers: ISETP on the low halves then {@code .EX} on the high halves), FSET/ISETP+SEL for
 * {@code set}, SEL/FSEL for {@code selp}. Shapes: {@code ISETP.cmp[.U32].bool p, q, a, b, c [, ex]};
 * {@code SEL d, a, b, p} ({@code d = p ? a : b}).
 */
@AutoService(InstructionLowerer.class)
public final class Compare implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("setp", "set", "selp", "slct");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        switch (insn.opcode()) {
            case "setp" -> setp(insn, cx);
            case "set" -> set(insn, cx);
            case "selp" -> selp(insn, cx);
            default -> slct(insn, cx);
        }
    }

    static String cmp(String ptx) {
        return switch (ptx) {
            case "eq" -> "EQ";
            case "ne" -> "NE";
            case "lt", "lo" -> "LT";
            case "le", "ls" -> "LE";
            case "gt", "hi" -> "GT";
            case "ge", "hs" -> "GE";
            case "equ" -> "EQU";
            case "neu" -> "NEU";
            case "ltu" -> "LTU";
            case "leu" -> "LEU";
            case "gtu" -> "GTU";
            case "geu" -> "GEU";
            case "num" -> "NUM";
            case "nan" -> "NAN";
            default -> null;
        };
    }

    private static String cmpOf(Instruction insn) {
        for (String m : insn.modifiers()) {
            String c = cmp(m);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private static String boolOf(Instruction insn) {
        if (insn.hasModifier("and")) {
            return "AND";
        }
        if (insn.hasModifier("or")) {
            return "OR";
        }
        if (insn.hasModifier("xor")) {
            return "XOR";
        }
        return null;
    }

    /** Emits the comparison {@code a cmp b} of type {@code t} into {@code p} (and {@code !cmp} into {@code q}). */
    static void compare(LoweringContext cx, Instruction insn, Reg p, Reg q, String cmp, PtxType t, Src a, Src b,
            Src c, String bool) throws CompilationException {
        boolean ftz = insn != null && insn.hasModifier("ftz");
        if (t == PtxType.F32) {
            List<String> mods = new ArrayList<>(List.of(cmp));
            if (ftz) {
                mods.add("FTZ");
            }
            mods.add(bool);
            cx.emit("FSETP", mods, List.of(p, q), List.of(a, b, c));
        } else if (t == PtxType.F64) {
            a = FloatArith.f64(cx, a);
            b = FloatArith.f64(cx, b);
            cx.emit("DSETP", List.of(cmp, bool), List.of(p, q), List.of(a, b, c));
        } else if (t == PtxType.F16 || t == PtxType.F16X2 || t == PtxType.BF16 || t == PtxType.BF16X2) {
            // HSETP2 compares both halves: p takes the low half's result (the scalar's), q the high half's
            List<String> mods = new ArrayList<>();
            if (t == PtxType.BF16 || t == PtxType.BF16X2) {
                mods.add("BF16_V2");
            }
            mods.add(cmp);
            if (ftz) {
                mods.add("FTZ");
            }
            mods.add(bool);
            cx.emit("HSETP2", mods, List.of(p, q), List.of(a, b, c));
        } else if (Ptx.isFloat(t)) {
            throw cx.unsupported(null);
        } else if (Ptx.wide(t)) {
            int64(cx, p, q, cmp, Ptx.signed(t), a, b, c, bool);
        } else {
            if (t.sizeBytes() < 4) {
                a = IntArith.extend(cx, a, t);
                b = IntArith.extend(cx, b, t);
            }
            List<String> mods = new ArrayList<>(List.of(cmp));
            if (!Ptx.signed(t) && !cmp.equals("EQ") && !cmp.equals("NE")) {
                mods.add("U32");
            }
            mods.add(bool);
            cx.emit("ISETP", mods, List.of(p, q), List.of(a, b, c));
        }
    }

    /** 64-bit integer comparison: unsigned ISETP on the low halves, then ISETP.EX on the high halves. */
    static void int64(LoweringContext cx, Reg p, Reg q, String cmp, boolean signed, Src a, Src b, Src c, String bool) {
        Reg low = Ptx.pred(cx);
        List<String> lowMods = cmp.equals("EQ") || cmp.equals("NE") ? List.of(cmp, "U32", "AND")
                : List.of(cmp, "U32", "AND");
        cx.emit("ISETP", lowMods, List.of(low, Reg.PT), List.of(Ptx.lo(a), Ptx.lo(b), Ptx.pt()));
        List<String> mods = new ArrayList<>(List.of(cmp));
        if (!signed) {
            mods.add("U32");
        }
        mods.add(bool);
        mods.add("EX");
        cx.emit("ISETP", mods, List.of(p, q), List.of(Ptx.hi(a), Ptx.hi(b), c, Src.of(low)));
    }

    private void setp(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = Ptx.type(insn);
        String cmp = cmpOf(insn);
        String bool = boolOf(insn);
        Operand d = Ptx.op(insn, 0);
        Reg p;
        Reg q = Reg.PT;
        if (d instanceof Operand.Pair pair) {
            p = cx.dst(pair.first(), PtxType.PRED);
            q = cx.dst(pair.second(), PtxType.PRED);
        } else {
            p = cx.dst(d, PtxType.PRED);
        }
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = Ptx.pt();
        if (bool != null) {
            c = predSrc(cx, insn.operands().get(3));
        } else {
            bool = "AND";
        }
        if (a.value() instanceof Imm && !(b.value() instanceof Imm) && !Ptx.isFloat(t)) {
            Src x = a;
            a = b;
            b = x;
            cmp = swap(cmp);
        }
        compare(cx, insn, p, q, cmp, t, a, b, c, bool);
    }

    /** A predicate source, {@code !%p} allowed. */
    static Src predSrc(LoweringContext cx, Operand o) {
        if (o instanceof org.jptxas.frontend.ptx.ast.Expr.Unary u
                && u.op() == org.jptxas.frontend.ptx.ast.Expr.UnaryOp.NOT) {
            return cx.src(u.operand(), PtxType.PRED).inverted();
        }
        Src s = cx.src(o, PtxType.PRED);
        if (s.value() instanceof Imm m) {
            return m.bits() != 0 ? Ptx.pt() : Ptx.notPt();
        }
        return s;
    }

    static String swap(String cmp) {
        return switch (cmp) {
            case "LT" -> "GT";
            case "GT" -> "LT";
            case "LE" -> "GE";
            case "GE" -> "LE";
            case "LTU" -> "GTU";
            case "GTU" -> "LTU";
            case "LEU" -> "GEU";
            case "GEU" -> "LEU";
            default -> cmp;
        };
    }

    private void set(Instruction insn, LoweringContext cx) throws CompilationException {
        List<PtxType> types = Ptx.types(insn);
        PtxType dt = types.get(0);
        PtxType t = types.get(types.size() - 1);
        String cmp = cmpOf(insn);
        String bool = boolOf(insn);
        Reg d = cx.dst(Ptx.op(insn, 0), dt);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = bool != null ? predSrc(cx, insn.operands().get(3)) : Ptx.pt();
        if (t == PtxType.F16X2 || t == PtxType.BF16X2) {
            // per half: 1.0 (BF) for a float result, all ones for an integer one
            List<String> mods = new ArrayList<>();
            if (t == PtxType.BF16X2) {
                mods.add("BF16_V2");
            }
            if (dt == PtxType.F16X2 || dt == PtxType.BF16X2) {
                mods.add("BF");
            }
            mods.add(cmp);
            if (insn.hasModifier("ftz")) {
                mods.add("FTZ");
            }
            mods.add(bool == null ? "AND" : bool);
            cx.emit("HSET2", mods, List.of(d), List.of(a, b, c));
            return;
        }
        Reg p = Ptx.pred(cx);
        compare(cx, insn, p, Reg.PT, cmp, t, a, b, c, bool == null ? "AND" : bool);
        // true: 1.0 in a floating destination's format (f16 0x3c00, bf16 0x3f80: the PTX ISA's half set), else all ones
        long one = switch (dt) {
            case F32 -> Float.floatToRawIntBits(1.0f);
            case F16 -> 0x3c00;
            case BF16 -> 0x3f80;
            default -> 0xffffffffL;
        };
        cx.emit("SEL", List.of(), List.of(d), List.of(Ptx.imm(one), Ptx.rz(), Src.of(p)));
    }

    private void selp(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = Ptx.type(insn);
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src p = predSrc(cx, Ptx.op(insn, 3));
        select(cx, d, a, b, p, t);
    }

    /** {@code d = p ? a : b}: SEL (FSEL for f32), per half for 64-bit values. */
    static void select(LoweringContext cx, Reg d, Src a, Src b, Src p, PtxType t) {
        if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
            Src x = a;
            a = b;
            b = x;
            p = p.inverted();
        }
        String op = t == PtxType.F32 ? "FSEL" : "SEL";
        if (d.width() == 2) {
            cx.emit("SEL", List.of(), List.of(d.component(0)), List.of(Ptx.lo(a), Ptx.lo(b), p));
            cx.emit("SEL", List.of(), List.of(d.component(1)), List.of(Ptx.hi(a), Ptx.hi(b), p));
        } else {
            cx.emit(op, List.of(), List.of(d), List.of(a, b, p));
        }
    }

    private void slct(Instruction insn, LoweringContext cx) throws CompilationException {
        List<PtxType> types = Ptx.types(insn);
        PtxType t = types.get(0);
        PtxType ct = types.get(types.size() - 1);
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = cx.src(Ptx.op(insn, 3), ct);
        Reg p = Ptx.pred(cx);
        if (ct == PtxType.F32) {
            cx.emit("FSETP", insn.hasModifier("ftz") ? List.of("GE", "FTZ", "AND") : List.of("GE", "AND"),
                    List.of(p, Reg.PT), List.of(c, Ptx.rz(), Ptx.pt()));
        } else {
            cx.emit("ISETP", List.of("GE", "AND"), List.of(p, Reg.PT), List.of(c, Ptx.rz(), Ptx.pt()));
        }
        select(cx, d, a, b, Src.of(p), t);
    }
}
