package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code mma.sync.aligned.m8n8k4.row.col.{f16.f16.f16.f16, f32.f16.f16.f32}}, Volta's quad-pair multiply (A: 2
 * registers, B: 2, C/D: 4 of f16 pairs or 8 of f32), as ptxas 13 writes it.
 *
 * <p>Where the target has the shape in hardware ({@link TargetFeature#QUAD_PAIR_HMMA}, Turing):
 * {@code HMMA.884.F16.F16.STEP0..1} or {@code HMMA.884.F32.F32.STEP0..3}, each step writing two registers of D from
 * the same A and B ({@code .ROW}/{@code .COL}) and the matching two registers of C.
 *
 * <p>Elsewhere ptxas computes it per thread on the FMA pipe, with no exchange between lanes: the lane's own four
 * products {@code s = a0 b0 + a1 b1 + a2 b2 + a3 b3} (the f16 elements widened exactly) are added to every element
 * of its C. For f32 C: {@code s} is a chain of FFMA from +0 and each {@code d = c + s}. For f16 C: the two pair sums
 * {@code p = a0 b0 + a1 b1} and {@code q = a2 b2 + a3 b3} (FMUL then FFMA), each element widened, {@code (c + p) + q}
 * in f32 and packed back to f16 pairs with round-to-nearest. This is ptxas's result, not the PTX ISA's matrix product
 * (which needs the other lanes' B columns); jptxas reproduces it so that both compilers' cubins compute the same.
 */
final class QuadPairMma {
    private QuadPairMma() {}

    /** Lowers the instruction; {@code f32} selects the f32 accumulator form. */
    static void lower(Instruction insn, LoweringContext cx, boolean f32) throws CompilationException {
        List<Operand> ops = insn.operands();
        if (ops.size() != 4) {
            throw cx.unsupported("operand count");
        }
        int acc = f32 ? 8 : 4;
        List<Src> a = regs(cx, ops.get(1), 2), b = regs(cx, ops.get(2), 2), c = regs(cx, ops.get(3), acc);
        List<Operand> out = elements(ops.get(0));
        if (out.size() != acc) {
            throw cx.unsupported("destination count");
        }
        List<Reg> d = cx.profile().has(TargetFeature.QUAD_PAIR_HMMA) ? hmma884(cx, a, b, c, f32)
                : f32 ? fmaF32(cx, a, b, c) : fmaF16(cx, a, b, c);
        for (int k = 0; k < acc; k++) {
            if (!(out.get(k) instanceof Operand.Sink)) {
                cx.emit("MOV", List.of(), List.of(cx.dst(out.get(k), PtxType.B32)), List.of(Src.of(d.get(k))));
            }
        }
    }

    private static List<Reg> hmma884(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c, boolean f32) {
        Reg ta = tuple(cx, a), tb = tuple(cx, b);
        String types = f32 ? "F32.F32" : "F16.F16";
        List<Reg> d = new ArrayList<>();
        for (int step = 0; step < c.size() / 2; step++) {
            Reg tc = tuple(cx, c.subList(2 * step, 2 * step + 2));
            Reg td = cx.newReg(RegFile.R, 2);
            List<String> mods = new ArrayList<>(List.of("884"));
            mods.addAll(List.of(types.split("\\.")));
            mods.add("STEP" + step);
            cx.emit("HMMA", List.copyOf(mods), List.of(td),
                    List.of(Src.of(ta), Src.of(tb), Src.of(tc)));
            d.add(td.component(0));
            d.add(td.component(1));
        }
        return d;
    }

    /** The eight f16 inputs widened to f32: a0..a3, then b0..b3. */
    private static Reg[] widened(MathEmitter m, List<Src> a, List<Src> b) {
        Reg[] w = new Reg[8];
        for (int k = 0; k < 8; k++) {
            Src reg = (k < 4 ? a : b).get(k % 4 / 2);
            w[k] = half(m, reg, k % 2);
        }
        return w;
    }

    /** Half {@code h} (0: low, 1: high) of {@code reg} widened to f32. */
    private static Reg half(MathEmitter m, Object reg, int h) {
        Object lo = reg;
        if (h == 1) {
            Reg t = m.r();
            m.op("PRMT", "", t, reg, 0x7632, MathEmitter.RZ);
            lo = t;
        }
        Reg f = m.r();
        CvtLowerer.halfToFloat(m, f, lo);
        return f;
    }

    private static List<Reg> fmaF32(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c) {
        MathEmitter m = new MathEmitter(cx);
        Reg[] w = widened(m, a, b);
        Object s = MathEmitter.RZ;
        for (int k = 0; k < 4; k++) {
            Reg t = m.r();
            m.ffma("", t, w[k], w[4 + k], s);
            s = t;
        }
        List<Reg> d = new ArrayList<>();
        for (Src ci : c) {
            Reg t = m.r();
            m.fadd("", t, ci, s);
            d.add(t);
        }
        return d;
    }

    private static List<Reg> fmaF16(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c) {
        MathEmitter m = new MathEmitter(cx);
        Reg[] w = widened(m, a, b);
        Reg[] pair = new Reg[2];
        for (int k = 0; k < 2; k++) {
            Reg prod = m.r(), sum = m.r();
            m.fmul("", prod, w[2 * k], w[4 + 2 * k]);
            m.ffma("", sum, w[2 * k + 1], w[4 + 2 * k + 1], prod);
            pair[k] = sum;
        }
        List<Reg> d = new ArrayList<>();
        for (Src ci : c) {
            Reg[] e = new Reg[2];
            for (int h = 0; h < 2; h++) {
                Reg x = half(m, ci, h), y = m.r();
                m.fadd("", y, x, pair[0]);
                e[h] = m.r();
                m.fadd("", e[h], y, pair[1]);
            }
            Reg packed = m.r();
            m.op("F2FP", "PACK_AB", packed, e[1], e[0]);
            d.add(packed);
        }
        return d;
    }

    private static List<Src> regs(LoweringContext cx, Operand fragment, int n) throws CompilationException {
        List<Operand> els = elements(fragment);
        if (els.size() != n) {
            throw cx.unsupported("fragment of " + els.size() + " registers");
        }
        List<Src> l = new ArrayList<>();
        for (Operand e : els) {
            l.add(cx.src(e, PtxType.B32));
        }
        return l;
    }

    private static Reg tuple(LoweringContext cx, List<Src> regs) {
        Reg t = cx.newReg(RegFile.R, regs.size());
        for (int k = 0; k < regs.size(); k++) {
            cx.emit("MOV", List.of(), List.of(t.component(k)), List.of(regs.get(k)));
        }
        return t;
    }

    private static List<Operand> elements(Operand o) {
        return o instanceof Operand.Vector v ? v.elements() : List.of(o);
    }
}
