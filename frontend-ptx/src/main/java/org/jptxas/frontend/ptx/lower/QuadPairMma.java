package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.elements;
import static org.jptxas.frontend.ptx.lower.Fragments.registers;
import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code mma.sync.aligned.m8n8k4.ALAYOUT.BLAYOUT.{f16.f16.f16.f16, f32.f16.f16.f32, f32.f16.f16.f16}}, Volta's
 * quad-pair multiply (A: 2 registers, B: 2, C/D: 4 of f16 pairs or 8 of f32), as ptxas 13 writes it.
 *
 * <p>Where the target has the shape in hardware ({@link TargetFeature#QUAD_PAIR_HMMA}, Turing):
 * {@code HMMA.884.F16.F16.STEP0..1} or {@code HMMA.884.F32.F32.STEP0..3}, each step writing two registers of D from
 * the same A and B ({@code .ROW}/{@code .COL}) and the matching two registers of C.
 *
 * <p>Elsewhere ptxas computes it on the FMA pipe: each lane fetches the rows of A and columns of B its elements need
 * from the lanes of its quad pair that hold them (SHFL.IDX), widens the f16 elements exactly to f32 and sums the
 * products in the order and rounding steps below ({@link #fmaF32}, {@link #fmaF16}); jptxas does the same, inline
 * where ptxas calls a subroutine, so both compilers' cubins compute the same bits.
 *
 * <p>Other layouts than row.col and an f16 C under an f32 D are brought to that form first, as ptxas does on the FMA
 * pipe: a column-major A (a row-major B) is transposed within each quad by shuffles ({@link #transposed}: lane r of a
 * quad then holds row r of A, column r of B), and an f16 C is widened into the f32 fragment layout
 * ({@link #widenedC}); both only move and widen values exactly. On Turing jptxas does the same before
 * {@code HMMA.884 .ROW, .COL} where ptxas names the layouts in the instruction.
 */
final class QuadPairMma {
    private QuadPairMma() {}

    /** Whether {@code mods} (with f16 A and B) name a form {@link #lower} takes. */
    static boolean handles(List<String> mods) {
        if (!mods.contains("m8n8k4") || mods.stream().filter(m -> m.equals("row") || m.equals("col")).count() != 2) {
            return false;
        }
        List<String> types = mods.stream().filter(m -> m.startsWith("f")).toList();
        return types.equals(List.of("f16", "f16", "f16", "f16")) || types.equals(List.of("f32", "f16", "f16", "f32"))
                || types.equals(List.of("f32", "f16", "f16", "f16"));
    }

    /** Lowers the instruction, a form {@link #handles} takes. */
    static void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<String> mods = insn.modifiers();
        List<String> layouts = mods.stream().filter(m -> m.equals("row") || m.equals("col")).toList();
        List<String> types = mods.stream().filter(m -> m.startsWith("f")).toList();
        boolean f32 = types.get(0).equals("f32"), cF16 = types.get(3).equals("f16");
        List<Operand> ops = insn.operands();
        if (ops.size() != 4) {
            throw cx.unsupported("operand count");
        }
        int acc = f32 ? 8 : 4;
        List<Src> a = registers(cx, ops.get(1), 2), b = registers(cx, ops.get(2), 2);
        List<Src> c = registers(cx, ops.get(3), cF16 ? 4 : 8);
        List<Operand> out = elements(ops.get(0));
        if (out.size() != acc) {
            throw cx.unsupported("destination count");
        }
        MathEmitter m = new MathEmitter(cx);
        Reg lane = null;
        if (layouts.get(0).equals("col") || layouts.get(1).equals("row") || f32 && cF16) {
            lane = laneId(m);
        }
        if (layouts.get(0).equals("col")) {
            a = transposed(m, a, lane);
        }
        if (layouts.get(1).equals("row")) {
            b = transposed(m, b, lane);
        }
        if (f32 && cF16) {
            c = widenedC(m, c, lane);
        }
        List<Reg> d = cx.profile().has(TargetFeature.QUAD_PAIR_HMMA) ? hmma884(cx, a, b, c, f32)
                : f32 ? fmaF32(cx, a, b, c) : fmaF16(cx, a, b, c);
        for (int k = 0; k < acc; k++) {
            if (!(out.get(k) instanceof Operand.Sink)) {
                cx.emit("MOV", List.of(), List.of(cx.dst(out.get(k), PtxType.B32)), List.of(Src.of(d.get(k))));
            }
        }
    }

    /**
     * A 2-register f16 fragment transposed within each quad: lane p of a quad gets element p of every lane k of its
     * quad as its element k (both registers of lane k fetched, the one holding element p kept, then its half).
     */
    private static List<Src> transposed(MathEmitter m, List<Src> frag, Reg lane) {
        Reg upper = m.p(), odd = m.p();
        m.lop3Test(upper, lane, 2, MathEmitter.RZ, 0xc0); // p >= 2: element p is in the second register
        m.lop3Test(odd, lane, 1, MathEmitter.RZ, 0xc0); // p odd: element p is a high half
        Reg[] w = new Reg[4];
        for (int k = 0; k < 4; k++) {
            Reg src = laneOf(m, lane, 0x1c, k);
            Reg lo = fetch(m, frag.get(0), src), hi = fetch(m, frag.get(1), src);
            w[k] = m.r();
            m.sel(w[k], hi, lo, upper);
        }
        List<Src> out = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Reg low = m.r(), high = m.r(), packed = m.r();
            m.op("PRMT", "", low, w[2 * r], 0x5410, w[2 * r + 1]);
            m.op("PRMT", "", high, w[2 * r], 0x7632, w[2 * r + 1]);
            m.sel(packed, high, low, odd);
            out.add(Src.of(packed));
        }
        return out;
    }

    /**
     * An f16 C (row r of the quad pair's 8 x 8, four registers) widened to the f32 fragment: element i is row
     * {@code (lane & 1) + (i & 2)} (held by lane {@code (lane & ~3) + (lane & 1) + (i & 2)}), column
     * {@code (i & 4) + (lane & 2) + (i & 1)} (register {@code (i & 4) / 2 + (lane & 2) / 2} there, half {@code i & 1}).
     */
    private static List<Src> widenedC(MathEmitter m, List<Src> c, Reg lane) {
        Reg upper = m.p();
        m.lop3Test(upper, lane, 2, MathEmitter.RZ, 0xc0);
        List<Src> out = new ArrayList<>();
        for (int i = 0; i < 8; i += 2) {
            Reg src = laneOf(m, lane, 0x1d, i & 2);
            int reg = (i & 4) / 2;
            Reg lo = fetch(m, c.get(reg), src), hi = fetch(m, c.get(reg + 1), src), w = m.r();
            m.sel(w, hi, lo, upper);
            out.add(Src.of(half(m, w, 0)));
            out.add(Src.of(half(m, w, 1)));
        }
        return out;
    }

    private static List<Reg> hmma884(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c, boolean f32) {
        Reg ta = tuple(cx, a), tb = tuple(cx, b);
        String types = f32 ? "F32.F32" : "F16.F16";
        List<Reg> d = new ArrayList<>();
        List<Reg> tc = new ArrayList<>();
        for (int step = 0; step < c.size() / 2; step++) { // C first: the steps issue back to back
            tc.add(tuple(cx, c.subList(2 * step, 2 * step + 2)));
        }
        for (int step = 0; step < c.size() / 2; step++) {
            Reg td = cx.newReg(RegFile.R, 2);
            List<String> mods = new ArrayList<>(List.of("884"));
            mods.addAll(List.of(types.split("\\.")));
            mods.add("STEP" + step);
            cx.emit("HMMA", List.copyOf(mods), List.of(td), List.of(Src.of(ta), Src.of(tb), Src.of(tc.get(step))));
            d.add(td.component(0));
            d.add(td.component(1));
        }
        return d;
    }

    /** The four f16 elements of a 2-register fragment (A's row or B's column), widened to f32. */
    private static Reg[] widened(MathEmitter m, Object lo, Object hi) {
        return new Reg[] {half(m, lo, 0), half(m, lo, 1), half(m, hi, 0), half(m, hi, 1)};
    }

    /** Half {@code h} (0: low, 1: high) of {@code reg} widened to f32. */
    static Reg half(MathEmitter m, Object reg, int h) {
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

    /** {@code value} of lane {@code lane} (SHFL.IDX over the whole warp). */
    private static Reg fetch(MathEmitter m, Src value, Reg lane) {
        Reg d = m.r();
        m.cx().emit("SHFL", List.of("IDX"), List.of(Reg.PT, d), List.of(value, Src.of(lane), Src.of(new Imm(0x1f))));
        return d;
    }

    /** {@code lane & mask} plus {@code add}. */
    private static Reg laneOf(MathEmitter m, Reg lane, int mask, int add) {
        Reg base = m.r();
        m.lop3(base, lane, mask, MathEmitter.RZ, 0xc0);
        if (add == 0) {
            return base;
        }
        Reg l = m.r();
        m.iadd3(l, base, add, MathEmitter.RZ);
        return l;
    }

    /** The widened fragment (2 registers) of the lane {@code lane}. */
    private static Reg[] fetched(MathEmitter m, List<Src> frag, Reg lane) {
        return widened(m, fetch(m, frag.get(0), lane), fetch(m, frag.get(1), lane));
    }

    private static Reg laneId(MathEmitter m) {
        Reg lane = m.r();
        m.cx().emit("S2R", List.of(), List.of(lane), List.of(Src.of(new SpecialReg("SR_LANEID"))));
        return lane;
    }

    /**
     * f32 C/D: element i is row (lane & 1) + (i & 2) of A (held by lane (lane & ~3) + (lane & 1) + (i & 2)) times
     * column (i & 4) + (lane & 2) + (i & 1) of B (held by lane (lane & 0xe) + (i & 1), plus 16 for i & 4): an FFMA
     * chain from +0 in k order, then C added.
     */
    private static List<Reg> fmaF32(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c) {
        MathEmitter m = new MathEmitter(cx);
        Reg lane = laneId(m);
        Reg[][] rows = new Reg[2][], cols = new Reg[4][];
        for (int r = 0; r < 2; r++) {
            Reg l = m.r();
            m.lop3(l, lane, 0xfffffffd, MathEmitter.RZ, 0xc0); // lane & ~2: the quad's lane of row (lane & 1)
            Reg src = l;
            if (r == 1) {
                src = m.r();
                m.iadd3(src, l, 2, MathEmitter.RZ);
            }
            rows[r] = fetched(m, a, src);
        }
        for (int q = 0; q < 4; q++) {
            cols[q] = fetched(m, b, laneOf(m, lane, 0xe, (q & 1) + 16 * (q >> 1)));
        }
        List<Reg> d = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Reg[] row = rows[(i & 2) >> 1], col = cols[(i & 1) + ((i & 4) >> 1)];
            Object s = MathEmitter.RZ;
            for (int k = 0; k < 4; k++) {
                Reg t = m.r();
                m.ffma("", t, row[k], col[k], s);
                s = t;
            }
            Reg t = m.r();
            m.fadd("", t, s, c.get(i));
            d.add(t);
        }
        return d;
    }

    /**
     * f16 C/D: the lane's row of A times column j of B (held by lane (lane & 0xc) + j % 4, plus 16 for j of 4 and
     * up) as two pair sums {@code p = a0 b0 + a1 b1}, {@code q = a2 b2 + a3 b3} (FMUL then FFMA), then
     * {@code (c + p) + q} in f32, packed back to f16 pairs (round to nearest).
     */
    private static List<Reg> fmaF16(LoweringContext cx, List<Src> a, List<Src> b, List<Src> c) {
        MathEmitter m = new MathEmitter(cx);
        Reg lane = laneId(m);
        Reg[] row = widened(m, a.get(0), a.get(1));
        Reg[] e = new Reg[8];
        for (int j = 0; j < 8; j++) {
            Reg[] col = fetched(m, b, laneOf(m, lane, 0xc, j % 4 + (j >= 4 ? 16 : 0)));
            Reg[] pair = new Reg[2];
            for (int k = 0; k < 2; k++) {
                Reg prod = m.r(), sum = m.r();
                m.fmul("", prod, row[2 * k], col[2 * k]);
                m.ffma("", sum, row[2 * k + 1], col[2 * k + 1], prod);
                pair[k] = sum;
            }
            Reg x = half(m, c.get(j / 2), j % 2), y = m.r();
            m.fadd("", y, x, pair[0]);
            e[j] = m.r();
            m.fadd("", e[j], y, pair[1]);
        }
        List<Reg> d = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Reg packed = m.r();
            m.op("F2FP", "PACK_AB", packed, e[2 * w + 1], e[2 * w]);
            d.add(packed);
        }
        return d;
    }
}
