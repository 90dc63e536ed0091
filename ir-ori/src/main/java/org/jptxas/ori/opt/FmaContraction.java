package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Floating-point contraction, as ptxas does it by default ({@code --fmad=true}): a multiply whose only use is an
 * add becomes one fused multiply-add, {@code FMUL t, a, b; FADD d, t, c} to {@code FFMA d, a, b, c} (and
 * {@code DMUL}/{@code DADD} to {@code DFMA}; a subtraction, {@code FADD d, c, -t}, to {@code FFMA d, -a, b, c}).
 * The PTX ISA allows it for {@code mul}/{@code add}/{@code sub} without an explicit rounding modifier: the lowering
 * marks those instructions {@linkplain Instr#contractible() contractible}, and only a pair of marked ones is
 * fused. Both must be unguarded and in one block, the product SSA-like with the add as its only reader and not
 * negated in absolute value, the multiply's sources not rewritten in between, the flush-to-zero modes equal and the
 * multiply unsaturated (a saturating add gives {@code FFMA.SAT}), and at most one of the fused instruction's
 * {@code b}/{@code c} operands a constant. ptxas fuses a product with several add readers into each of them; this
 * pass keeps to products with one reader, so the multiply goes away.
 */
public final class FmaContraction implements Pass {
    @Override
    public String name() {
        return "fma";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        // fetched at the first candidate (before any rewrite): a body without contractible adds, as integer kernels
        // are, needs no def-use analysis, which was rebuilt for this pass after every change of the body
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            // fused multiplies leave the block after its scan, so the analysis' positions hold during it
            List<Instr> fused = new ArrayList<>();
            for (Instr add : new ArrayList<>(instrs)) {
                String fma = switch (add.op().name()) {
                    case "FADD" -> "FFMA";
                    case "DADD" -> "DFMA";
                    default -> null;
                };
                if (fma == null || !add.contractible() || !add.guard().isAlways() || add.srcs().size() != 2) {
                    continue;
                }
                if (sd == null) {
                    sd = cx.singleDefs(body);
                }
                for (int k = 0; k < 2; k++) {
                    Instr mul = product(add, k, sd, b, fma);
                    if (mul != null && fuse(b, mul, add, k, fma, cx)) {
                        fused.add(mul);
                        changed = true;
                        break;
                    }
                }
            }
            instrs.removeAll(fused);
        }
        return changed;
    }

    /** The contractible multiply whose result is {@code add}'s source {@code k} and read nowhere else, or null. */
    private static Instr product(Instr add, int k, SingleDefs sd, BasicBlock b, String fused) {
        Src s = add.srcs().get(k);
        if (!(s.value() instanceof Reg t) || s.abs() || t.isPart() || !t.virtual()) {
            return null;
        }
        Instr mul = sd.soleDef(t);
        String want = fused.equals("FFMA") ? "FMUL" : "DMUL";
        if (mul == null || !mul.op().name().equals(want) || !mul.contractible() || !mul.guard().isAlways()
                || mul.hasMod("SAT") || mul.hasMod("FTZ") != add.hasMod("FTZ") || mul.srcs().size() != 2
                || mul.dsts().size() != 1 || !mul.dsts().get(0).equals(t)) {
            return null;
        }
        List<Instr> uses = sd.uses(t);
        if (uses.size() != 1 || uses.get(0) != add || add.srcs().get(1 - k).value().equals(t)) {
            return null;
        }
        SingleDefs.Position pm = sd.position(mul);
        SingleDefs.Position pa = sd.position(add);
        if (pm.block() != b.id() || pa.block() != b.id() || pm.index() >= pa.index()) {
            return null;
        }
        // the multiply's sources still hold their values at the add
        List<Instr> instrs = b.instrs();
        for (int i = pm.index() + 1; i < pa.index(); i++) {
            for (Reg r : mul.usedRegs()) {
                if (Rewrites.writes(instrs.get(i), r)) {
                    return null;
                }
            }
        }
        return mul;
    }

    /**
     * Without the backend's word, the fused forms ptxas writes that every backend's tables encode: an immediate
     * only in an unsaturated FFMA's {@code b}, a saturated one only on registers and constants, a DFMA without
     * negated or absolute operands.
     */
    static boolean habitual(Instr fma) {
        boolean immediate = fma.srcs().stream().anyMatch(x -> x.value() instanceof org.jptxas.ori.ir.Imm);
        if (fma.op().name().equals("DFMA") && fma.srcs().stream().anyMatch(Src::hasModifiers)) {
            return false; // sm_80's tables have no DFMA with a negated operand
        }
        return !immediate || fma.op().name().equals("FFMA") && !fma.hasMod("SAT")
                && !(fma.srcs().get(2).value() instanceof org.jptxas.ori.ir.Imm);
    }

    private static boolean fuse(BasicBlock b, Instr mul, Instr add, int k, String fused, OptContext cx) {
        Src a = mul.srcs().get(0);
        Src m = mul.srcs().get(1);
        Src c = add.srcs().get(1 - k);
        if (!(a.value() instanceof Reg)) {
            Src x = a;
            a = m;
            m = x;
        }
        if (!(a.value() instanceof Reg) || !(m.value() instanceof Reg) && !(c.value() instanceof Reg)) {
            return false; // one constant slot (b or c) per fused instruction
        }
        if (add.srcs().get(k).neg()) {
            a = a.negated();
        }
        List<String> mods = new ArrayList<>();
        if (add.hasMod("FTZ")) {
            mods.add("FTZ");
        }
        if (add.hasMod("SAT")) {
            mods.add("SAT");
        }
        Instr fma = new Instr(OpInfo.op(fused), mods, List.of(add.dsts().get(0)), List.of(a, m, c), add.guard(),
                add.line());
        if (!cx.canEncode(fma).orElseGet(() -> habitual(fma))) {
            return false;
        }
        List<Instr> instrs = b.instrs();
        instrs.set(instrs.indexOf(add), fma);
        return true;
    }
}
