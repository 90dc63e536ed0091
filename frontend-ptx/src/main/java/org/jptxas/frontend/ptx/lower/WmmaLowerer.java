package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.elements;
import static org.jptxas.frontend.ptx.lower.Fragments.part;
import static org.jptxas.frontend.ptx.lower.Fragments.registers;
import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.isa.WmmaForm;
import org.jptxas.frontend.ptx.isa.WmmaTiles;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * The {@link WmmaForm}s: the 16 x 16 tile as two 16 x 8 halves, each a chain of HMMA, as ptxas writes it, in the
 * fragment layout {@link WmmaForm} describes.
 *
 * <table>
 *   <caption>SASS per half (left: B registers 0-1, C/D first half; right: B 2-3, second half)</caption>
 *   <tr><th>form</th><th>with HMMA.16816</th><th>without (Turing)</th></tr>
 *   <tr><td>m16n16k16 f16 inputs</td><td>HMMA.16816.{F16,F32} A0-3, B</td>
 *       <td>HMMA.1688 A0-1, B0, then A2-3, B1 (both halves' first step, then both second steps)</td></tr>
 *   <tr><td>m16n16k8 tf32</td><td colspan="2">HMMA.1684.F32.TF32 A0-1, B0, then A2-3, B1, steps interleaved</td></tr>
 * </table>
 *
 * With f16 C and f32 D the f16 pairs of C are widened to f32 first; with f32 C and f16 D the f32 results are rounded
 * to f16 pairs last ({@code F2FP.PACK_AB}; on a target without {@link TargetFeature#F2FP_PAIR} one f32 at a time,
 * joined by PRMT), as ptxas 13 does: both accumulate in f32.
 */
@AutoService(InstructionLowerer.class)
public final class WmmaLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("wmma.mma");
    }

    /** One HMMA: its modifiers, the A registers (first, count), the B register(s) and which half of C/D. */
    record Step(List<String> mods, int aFirst, int aCount, int bFirst, int bCount, int half) {}

    /** What an f16 or tf32 wmma.mma becomes: accumulator registers per half, fragment sizes and the HMMA steps. */
    record Plan(int accPerHalf, int aRegs, int bRegs, List<Step> steps) {}

    static Plan plan(List<String> mods, boolean hmma16816) {
        WmmaForm form = WmmaForm.of(mods);
        if (form == null) {
            return null;
        }
        int acc = form.accumulatorRegistersPerHalf();
        List<Step> steps = new ArrayList<>();
        if (form.tf32Inputs()) {
            List<String> m = List.of("1684", "F32", "TF32");
            for (int k = 0; k < 2; k++) {
                for (int half = 0; half < 2; half++) {
                    steps.add(new Step(m, 2 * k, 2, 2 * half + k, 1, half));
                }
            }
        } else {
            String t = form.f32Accumulator() ? "F32" : "F16";
            if (hmma16816) {
                for (int half = 0; half < 2; half++) {
                    steps.add(new Step(List.of("16816", t), 0, 4, 2 * half, 2, half));
                }
            } else {
                for (int k = 0; k < 2; k++) {
                    for (int half = 0; half < 2; half++) {
                        steps.add(new Step(List.of("1688", t), 2 * k, 2, 2 * half + k, 1, half));
                    }
                }
            }
        }
        return new Plan(acc, form.inputRegisters(), form.inputRegisters(), steps);
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        Plan p = plan(insn.modifiers(), cx.profile().has(TargetFeature.HMMA_16816));
        if (p == null) {
            WmmaTiles tiles = WmmaTiles.of(insn.modifiers(), cx.profile().has(TargetFeature.HMMA_16816));
            if (tiles == null) {
                throw cx.unsupported("this shape, layout or type combination");
            }
            lowerTiles(insn, cx, tiles);
            return;
        }
        List<Operand> ops = insn.operands();
        if (ops.size() != 4) {
            throw cx.unsupported("operand count");
        }
        List<Src> a = registers(cx, ops.get(1), p.aRegs());
        List<Src> b = registers(cx, ops.get(2), p.bRegs());
        WmmaForm form = WmmaForm.of(insn.modifiers());
        List<Src> c = registers(cx, ops.get(3), form.cRegisters());
        MathEmitter m = new MathEmitter(cx);
        if (form.f16C() && form.f32Accumulator()) { // f16 C widened to the f32 accumulator, low half first
            List<Src> wide = new ArrayList<>();
            for (Src pair : c) {
                for (int h = 0; h < 2; h++) {
                    wide.add(Src.of(QuadPairMma.half(m, pair, h)));
                }
            }
            c = wide;
        }
        Reg[] acc = new Reg[2];
        Map<List<Src>, Reg> tuples = new HashMap<>(); // a fragment run read by two steps is copied once
        for (Step s : p.steps()) {
            Reg sa = tuples.computeIfAbsent(a.subList(s.aFirst(), s.aFirst() + s.aCount()), l -> tuple(cx, l));
            Reg sb = tuples.computeIfAbsent(b.subList(s.bFirst(), s.bFirst() + s.bCount()), l -> tuple(cx, l));
            Reg sc = acc[s.half()] != null ? acc[s.half()]
                    : tuple(cx, c.subList(s.half() * p.accPerHalf(), (s.half() + 1) * p.accPerHalf()));
            Reg d = cx.newReg(RegFile.R, p.accPerHalf());
            cx.emit("HMMA", s.mods(), List.of(d), List.of(Src.of(sa), Src.of(sb), Src.of(sc)));
            acc[s.half()] = d;
        }
        List<Operand> out = elements(ops.get(0));
        if (out.size() != form.dRegisters()) {
            throw cx.unsupported("destination count");
        }
        boolean pack = form.f16D() && form.f32Accumulator(); // f32 results rounded to f16 pairs, as ptxas does
        int per = pack ? p.accPerHalf() / 2 : p.accPerHalf();
        for (int k = 0; k < out.size(); k++) {
            if (out.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg r = cx.dst(out.get(k), PtxType.B32);
            Reg half = acc[k / per];
            if (pack) {
                int e = 2 * (k % per);
                pack(cx, m, r, Src.of(part(half, e)), Src.of(part(half, e + 1)));
            } else {
                cx.emit("MOV", List.of(), List.of(r), List.of(Src.of(part(half, k % per))));
            }
        }
    }

    /**
     * The {@link WmmaTiles} forms: each multiply on copies of the fragment registers it reads (a run read twice is
     * copied once), its D replacing its part of the accumulator, which is copied out at the end. f64 registers are
     * handled as their two 32-bit words.
     */
    private static void lowerTiles(Instruction insn, LoweringContext cx, WmmaTiles t) throws CompilationException {
        List<Operand> ops = insn.operands();
        if (ops.size() != 4) {
            throw cx.unsupported("operand count");
        }
        int per = t.wide() ? 2 : 1;
        List<Src> a = words(cx, ops.get(1), t.aRegisters(), t.wide());
        List<Src> b = words(cx, ops.get(2), t.bRegisters(), t.wide());
        List<Src> acc = new ArrayList<>(words(cx, ops.get(3), t.cRegisters(), t.wide()));
        MathEmitter m = new MathEmitter(cx);
        if (t.widenC()) { // f16 C widened to the f32 accumulator, low half first
            List<Src> wide = new ArrayList<>();
            for (Src pair : acc) {
                for (int h = 0; h < 2; h++) {
                    wide.add(Src.of(QuadPairMma.half(m, pair, h)));
                }
            }
            acc = wide;
        }
        Map<List<Src>, Reg> tuples = new HashMap<>();
        for (WmmaTiles.Tile tile : t.tiles()) {
            MmaLowerer.Form f = MmaLowerer.form(tile.mma());
            if (f == null) {
                throw cx.unsupported("this shape, layout or type combination");
            }
            Reg ta = tuples.computeIfAbsent(pick(tile.swapped() ? b : a, tile.a(), per), l -> tuple(cx, l));
            Reg tb = tuples.computeIfAbsent(pick(tile.swapped() ? a : b, tile.b(), per), l -> tuple(cx, l));
            List<Src> c = pick(acc, tile.acc(), per);
            Reg d = MmaLowerer.multiply(cx, f, ta, tb, tuple(cx, c));
            for (int i = 0; i < c.size(); i++) {
                acc.set(per * tile.acc().get(i / per) + i % per, Src.of(part(d, i)));
            }
        }
        List<Operand> out = elements(ops.get(0));
        if (out.size() != t.dRegisters()) {
            throw cx.unsupported("destination count");
        }
        for (int k = 0; k < out.size(); k++) {
            if (out.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg r = cx.dst(out.get(k), t.wide() ? PtxType.B64 : PtxType.B32);
            if (t.packD()) { // f32 results rounded to f16 pairs, as ptxas does
                pack(cx, m, r, acc.get(2 * k), acc.get(2 * k + 1));
                continue;
            }
            for (int q = 0; q < per; q++) {
                cx.emit("MOV", List.of(), List.of(per == 2 ? r.component(q) : r), List.of(acc.get(per * k + q)));
            }
        }
    }

    /**
     * Two f32 rounded to an f16 pair in {@code r} ({@code lo} in the low half): {@code F2FP.PACK_AB}, or on a target
     * without {@link TargetFeature#F2FP_PAIR} each on its own, joined by PRMT.
     */
    private static void pack(LoweringContext cx, MathEmitter m, Reg r, Src lo, Src hi) {
        if (cx.profile().has(TargetFeature.F2FP_PAIR)) {
            m.op("F2FP", "PACK_AB", r, hi, lo);
            return;
        }
        Reg l = m.r(), h = m.r();
        m.op("F2FP", "PACK_AB", l, MathEmitter.RZ, lo);
        m.op("F2FP", "PACK_AB", h, MathEmitter.RZ, hi);
        m.op("PRMT", "", r, l, 0x5410, h);
    }

    /** A fragment's registers as 32-bit words (an f64 register as its low word, then its high one). */
    private static List<Src> words(LoweringContext cx, Operand fragment, int n, boolean wide)
            throws CompilationException {
        if (!wide) {
            return registers(cx, fragment, n);
        }
        List<Operand> els = elements(fragment);
        if (els.size() != n) {
            throw cx.unsupported("fragment of " + els.size() + " registers");
        }
        List<Src> l = new ArrayList<>();
        for (Operand e : els) {
            Src v = cx.src(e, PtxType.B64);
            l.add(Ptx.part(v, 0));
            l.add(Ptx.part(v, 1));
        }
        return l;
    }

    /** The words of registers {@code regs} ({@code per} words each). */
    private static List<Src> pick(List<Src> words, List<Integer> regs, int per) {
        List<Src> l = new ArrayList<>();
        for (int r : regs) {
            l.addAll(words.subList(per * r, per * r + per));
        }
        return l;
    }
}
