package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Float add/sub/mul/fma/mad/min/max/neg/abs for f32 (FADD/FMUL/FFMA/FMNMX, modifiers FTZ, rounding, SAT in that
 * order), f64 (DADD/DMUL/DFMA; min/max as ptxas: DSETP.MIN/MAX + SEL/FSEL + NaN fix-up) and packed f16x2/bf16x2
 * (HADD2/HMUL2/HFMA2/HMNMX2, {@code BF16_V2}). Negation and absolute value of f64 and packed halves flip/clear the
 * sign bits with LOP3 (exactly PTX's semantics).
 */
final class FloatArith {
    private FloatArith() {}

    static List<String> mods(Instruction insn, boolean allowRound) {
        List<String> m = new ArrayList<>();
        if (insn.hasModifier("ftz")) {
            m.add("FTZ");
        }
        if (allowRound) {
            if (insn.hasModifier("rz")) {
                m.add("RZ");
            } else if (insn.hasModifier("rm")) {
                m.add("RM");
            } else if (insn.hasModifier("rp")) {
                m.add("RP");
            }
        }
        if (insn.hasModifier("sat")) {
            m.add("SAT");
        }
        return m;
    }

    /**
     * Whether the PTX ISA lets {@code mul}/{@code add}/{@code sub} be contracted into a fused multiply-add: no
     * explicit rounding modifier ({@code .rn} included, which forbids it).
     */
    static boolean contractible(Instruction insn, String op) {
        return (op.equals("mul") || op.equals("add") || op.equals("sub")) && !insn.hasModifier("rn")
                && !insn.hasModifier("rz") && !insn.hasModifier("rm") && !insn.hasModifier("rp");
    }

    static Src fneg(Src s, PtxType t) {
        if (s.value() instanceof Imm m) {
            return Src.of(new Imm(FloatBits.negate(m.bits(), t) & (t == PtxType.F64 ? -1L : 0xffffffffL)));
        }
        return s.negated();
    }

    static void arith(Instruction insn, LoweringContext cx, PtxType t, String op) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        int n = op.equals("fma") || op.equals("mad") ? 3 : 2;
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = n == 3 ? cx.src(Ptx.op(insn, 3), t) : null;
        if (op.equals("sub")) {
            b = fneg(b, t);
        }
        if (c != null && c.value() instanceof Imm && (b.value() instanceof Imm || a.value() instanceof Imm)) {
            // one immediate slot per instruction: the addend goes to a register
            Reg r = cx.newReg(org.jptxas.ori.ir.RegFile.R, t == PtxType.F64 ? 2 : 1);
            MovLowerer.move(cx, r, c, t);
            c = Src.of(r);
        }
        boolean halves = t == PtxType.F16 || t == PtxType.F16X2 || t == PtxType.BF16 || t == PtxType.BF16X2;
        // .relu on a half fma is HFMA2's .RELU, .oob HFMA2's .OOB (the checker keeps each to the targets with it)
        if ((insn.hasModifier("oob") || insn.hasModifier("relu")) && !(halves && c != null)) {
            throw cx.unsupported(null);
        }
        switch (t) {
            case F32 -> {
                if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
                    Src x = a;
                    a = b;
                    b = x;
                }
                String sass = switch (op) {
                    case "add", "sub" -> "FADD";
                    case "mul" -> "FMUL";
                    default -> "FFMA";
                };
                cx.emit(sass, mods(insn, true), List.of(d), n == 3 ? List.of(a, b, c) : List.of(a, b))
                        .setContractible(contractible(insn, op));
            }
            case F64 -> {
                a = f64(cx, a);
                b = f64(cx, b);
                c = c == null ? null : f64(cx, c);
                String sass = switch (op) {
                    case "add", "sub" -> "DADD";
                    case "mul" -> "DMUL";
                    default -> "DFMA";
                };
                cx.emit(sass, mods(insn, true), List.of(d), n == 3 ? List.of(a, b, c) : List.of(a, b))
                        .setContractible(contractible(insn, op));
            }
            case F16, F16X2, BF16, BF16X2 -> {
                boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                List<String> m = new ArrayList<>();
                if (bf) {
                    m.add("BF16_V2");
                }
                if (insn.hasModifier("sat")) {
                    m.add("SAT");
                }
                if (insn.hasModifier("ftz")) {
                    m.add(0, "FTZ");
                }
                if (bf && !op.equals("fma") && !op.equals("mad")) {
                    // bf16 add/mul as ptxas spells them on sm_80: HFMA2.BF16_V2 with 1.0 or -0.0
                    long one = 0x3f803f80L;
                    if (op.equals("mul")) {
                        cx.emit("HFMA2", m, List.of(d), List.of(a, b, Ptx.imm(0x80008000L)));
                    } else {
                        cx.emit("HFMA2", m, List.of(d), List.of(a, Ptx.imm(one), b));
                    }
                    return;
                }
                if (insn.hasModifier("oob")) {
                    m.add("OOB"); // nvdisasm's order: HFMA2{.BF16_V2}.OOB{.RELU}
                }
                if (insn.hasModifier("relu")) {
                    m.add("RELU");
                }
                String sass = switch (op) {
                    case "add", "sub" -> "HADD2";
                    case "mul" -> "HMUL2";
                    default -> "HFMA2";
                };
                cx.emit(sass, m, List.of(d), n == 3 ? List.of(a, b, c) : List.of(a, b));
            }
            default -> throw cx.unsupported(null);
        }
    }

    /**
     * An f64 operand as a SASS slot can take it: an immediate keeps its 64 bits only when the low 32 are zero (the
     * slot holds the high half); any other constant goes to a register pair.
     */
    static Src f64(LoweringContext cx, Src s) {
        if (s.value() instanceof Imm m && (m.bits() & 0xffffffffL) != 0) {
            Reg r = cx.newReg(org.jptxas.ori.ir.RegFile.R, 2);
            cx.emit("MOV", List.of(), List.of(r.component(0)), List.of(Ptx.lo(s)));
            cx.emit("MOV", List.of(), List.of(r.component(1)), List.of(Ptx.hi(s)));
            return new Src(r, s.neg(), s.abs(), s.not());
        }
        return s;
    }

    static void minMax(Instruction insn, LoweringContext cx, PtxType t, boolean min) throws CompilationException {
        // .xorsign.abs (sm_86 on): FMNMX/HMNMX2 .XORSIGN on |a|, |b| (the result's sign is a's xor b's)
        boolean xorsign = insn.hasModifier("xorsign") && insn.hasModifier("abs");
        if (insn.hasModifier("xorsign") != insn.hasModifier("abs") || insn.operands().size() > 3
                || ((insn.hasModifier("NaN") || xorsign) && t == PtxType.F64)) {
            throw cx.unsupported(null);
        }
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        if (xorsign) {
            a = Src.of(SyncOperands.register(cx, a, 1));
            b = Src.of(SyncOperands.register(cx, b, 1));
            a = new Src(a.value(), false, true, false);
            b = new Src(b.value(), false, true, false);
        }
        Src which = min ? Ptx.pt() : Ptx.notPt();
        switch (t) {
            case F32 -> {
                if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
                    Src x = a;
                    a = b;
                    b = x;
                }
                List<String> mods = new ArrayList<>();
                if (insn.hasModifier("ftz")) {
                    mods.add("FTZ");
                }
                if (insn.hasModifier("NaN")) {
                    mods.add("NAN");
                }
                if (xorsign) {
                    mods.add("XORSIGN");
                }
                cx.emit("FMNMX", mods, List.of(d), List.of(a, b, which));
            }
            case F64 -> {
                a = f64(cx, a);
                b = f64(cx, b);
                Reg p = Ptx.pred(cx);
                Reg nan = Ptx.pred(cx);
                cx.emit("DSETP", List.of(min ? "MIN" : "MAX", "AND"), List.of(p, nan), List.of(a, b, Ptx.pt()));
                Reg hi = Ptx.r32(cx);
                cx.emit("FSEL", List.of(), List.of(hi), List.of(Ptx.hi(a), Ptx.hi(b), Src.of(p)));
                cx.emit("SEL", List.of(), List.of(d.component(0)), List.of(Ptx.lo(a), Ptx.lo(b), Src.of(p)));
                Reg fixed = Ptx.r32(cx);
                cx.emit("MOV", List.of(), List.of(fixed), List.of(Src.of(hi)));
                cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, fixed),
                        List.of(Ptx.hi(b), Ptx.imm(0x80000), Ptx.rz(), Ptx.imm(0xfc), Ptx.notPt()))
                        .setGuard(new org.jptxas.ori.ir.Guard(nan, false));
                cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Src.of(fixed)));
            }
            case F16, F16X2, BF16, BF16X2 -> {
                boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                List<String> mods = new ArrayList<>();
                if (bf) {
                    mods.add("BF16_V2");
                }
                if (insn.hasModifier("ftz") && !bf) { // min/max.ftz.f16: subnormal inputs as zeros, as ptxas
                    mods.add("FTZ");
                }
                if (insn.hasModifier("NaN")) {
                    mods.add("NAN");
                }
                if (xorsign) {
                    mods.add("XORSIGN");
                }
                cx.emit("HMNMX2", mods, List.of(d), List.of(a, b, which));
            }
            default -> throw cx.unsupported(null);
        }
    }

    /** neg/abs: FADD with -RZ for f32 (as ptxas), HADD2.FTZ for .ftz f16, sign-bit LOP3 for f64 and other halves. */
    static void negAbs(Instruction insn, LoweringContext cx, PtxType t, boolean neg) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        switch (t) {
            case F32 -> {
                Src x = neg ? a.negated() : new Src(a.value(), false, true, false);
                cx.emit("FADD", insn.hasModifier("ftz") ? List.of("FTZ") : List.of(), List.of(d),
                        List.of(x, Src.of(Reg.RZ).negated()));
            }
            case F64 -> {
                cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Ptx.lo(a)));
                LogicLowerer.lop(cx, d.component(1), Ptx.hi(a), Ptx.imm(neg ? 0x80000000L : 0x7fffffffL), Ptx.rz(),
                        neg ? 0x3c : 0xc0);
            }
            case F16, F16X2 -> {
                long sign = t == PtxType.F16 ? 0x8000 : 0x80008000L, magnitude = t == PtxType.F16 ? 0x7fff : 0x7fff7fffL;
                if (!insn.hasModifier("ftz")) {
                    LogicLowerer.lop(cx, d, a, Ptx.imm(neg ? sign : magnitude), Ptx.rz(), neg ? 0x3c : 0xc0);
                    return;
                }
                // .ftz flushes subnormal inputs and results (PTX ISA): -0 - a in HADD2.FTZ (sub's form; ptxas writes
                // -a + -RZ, a form the tables lack), the same value; abs clears its sign (ptxas: |a| + -RZ)
                Reg negZero = cx.newReg(org.jptxas.ori.ir.RegFile.R, 1);
                cx.emit("MOV", List.of(), List.of(negZero), List.of(Ptx.imm(sign)));
                Reg n = neg ? d : cx.newReg(org.jptxas.ori.ir.RegFile.R, 1);
                cx.emit("HADD2", List.of("FTZ"), List.of(n), List.of(Src.of(negZero), a.negated()));
                if (!neg) {
                    LogicLowerer.lop(cx, d, Src.of(n), Ptx.imm(magnitude), Ptx.rz(), 0xc0);
                }
            }
            case BF16 -> LogicLowerer.lop(cx, d, a, Ptx.imm(neg ? 0x8000 : 0x7fff), Ptx.rz(), neg ? 0x3c : 0xc0);
            case BF16X2 -> LogicLowerer.lop(cx, d, a, Ptx.imm(neg ? 0x80008000L : 0x7fff7fffL), Ptx.rz(),
                    neg ? 0x3c : 0xc0);
            default -> throw cx.unsupported(null);
        }
    }
}
