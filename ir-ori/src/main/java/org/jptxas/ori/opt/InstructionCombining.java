package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Instruction combining through single-use temporaries, as ptxas's idioms have it: multiply + add into IMAD,
 * shift-left + add into LEA, two IADD3 into one (constants summed), chains of LOP3 over at most three distinct
 * inputs into one LOP3 with the composed truth table. The inner instruction's register inputs must be stable
 * (one value wherever read) so they may be read later at the outer instruction; the inner instruction is left dead.
 */
public final class InstructionCombining implements Pass {
    @Override
    public String name() {
        return "combine";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = new SingleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr outer : b.instrs()) {
                if (!plainResult(outer)) {
                    continue;
                }
                changed |= switch (outer.op().name()) {
                    case "IADD3" -> combineAdd(outer, sd);
                    case "LOP3" -> combineLogic(outer, sd);
                    default -> false;
                };
            }
        }
        return changed;
    }

    /** One 32-bit virtual R result, predicate outputs unused, no carry-in. */
    private static boolean plainResult(Instr in) {
        Reg d = OpInfo.soleRDst(in);
        return d != null && d.virtual() && !in.mods().contains("X") && !in.mods().contains("HI");
    }

    /** The single-use temporary's stable, unguarded definition, if {@code s} reads one. */
    private static Instr innerDef(Src s, Instr outer, SingleDefs sd) {
        if (!(s.value() instanceof Reg t) || !t.virtual() || t.isPart() || t.comps() != 1) {
            return null;
        }
        Instr def = sd.soleDef(t);
        if (def == null || def == outer || sd.uses(t).size() != 1 || !plainResult(def)) {
            return null;
        }
        int reads = 0;
        for (Reg u : outer.usedRegs()) {
            if (Rewrites.sameReg(u, t)) {
                reads++;
            }
        }
        if (reads != 1) {
            return null;
        }
        for (Reg r : def.usedRegs()) {
            if (r.virtual() && !sd.stable(r)) {
                return null;
            }
            if (!r.virtual() && !r.isZero()) {
                return null;
            }
        }
        return def;
    }

    private static boolean isZero(Src s) {
        Long v = OpInfo.const32(s);
        return v != null && v == 0;
    }

    private static boolean combineAdd(Instr outer, SingleDefs sd) {
        List<Src> s = outer.srcs();
        if (s.size() != 3) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            Instr inner = innerDef(s.get(i), outer, sd);
            if (inner == null) {
                continue;
            }
            List<Src> others = new ArrayList<>();
            for (int j = 0; j < 3; j++) {
                if (j != i && !isZero(s.get(j))) {
                    others.add(s.get(j));
                }
            }
            Src t = s.get(i);
            if (OpInfo.is(inner, "IADD3") && inner.srcs().size() == 3 && !t.abs() && !t.not()) {
                List<Src> terms = new ArrayList<>();
                for (Src x : inner.srcs()) {
                    if (!isZero(x)) {
                        terms.add(t.neg() ? negate(x) : x);
                    }
                }
                terms.addAll(others);
                List<Src> merged = mergeTerms(terms);
                if (merged != null) {
                    outer.srcs().clear();
                    outer.srcs().addAll(merged);
                    return true;
                }
            }
            if (others.size() == 1 && !t.hasModifiers() && !others.get(0).abs() && !others.get(0).not()) {
                Src y = others.get(0);
                if (OpInfo.is(inner, "IMAD") && inner.srcs().size() == 3 && isZero(inner.srcs().get(2))
                        && List.of("U32", "SHL", "MOV").containsAll(inner.mods())) {
                    Src a = inner.srcs().get(0);
                    Src bb = inner.srcs().get(1);
                    if (OpInfo.isNonRegister(a) || OpInfo.isNonRegister(bb) && OpInfo.isNonRegister(y)) {
                        continue;
                    }
                    y = foldNeg(y);
                    if (y == null) {
                        continue;
                    }
                    rewrite(outer, "IMAD", List.of(), List.of(a, bb, y));
                    return true;
                }
                if (OpInfo.is(inner, "SHF") && inner.mods().equals(List.of("L", "U32")) && inner.srcs().size() == 3
                        && isZero(inner.srcs().get(2)) && OpInfo.imm(inner.srcs().get(1)) != null
                        && OpInfo.imm(inner.srcs().get(1)) < 32 && !OpInfo.isNonRegister(inner.srcs().get(0))
                        && !y.neg() && !(y.value() instanceof Imm)) {
                    rewrite(outer, "LEA", List.of(), List.of(inner.srcs().get(0), y, inner.srcs().get(1)));
                    return true;
                }
            }
        }
        return false;
    }

    private static Src negate(Src x) {
        if (x.value() instanceof Imm i) {
            return Src.of(Imm.ofInt((int) -i.bits()));
        }
        return x.negated();
    }

    /** An immediate with its negation folded in; other sources as they are (IMAD's addend takes a negation). */
    private static Src foldNeg(Src y) {
        if (y.value() instanceof Imm i) {
            return y.neg() ? Src.of(Imm.ofInt((int) -i.bits())) : y;
        }
        return y;
    }

    /** At most three terms with immediates summed and the one non-register term in the middle slot; or null. */
    private static List<Src> mergeTerms(List<Src> terms) {
        long constant = 0;
        boolean hasConstant = false;
        List<Src> regs = new ArrayList<>();
        Src nonReg = null;
        for (Src x : terms) {
            if (x.value() instanceof Imm) {
                constant += OpInfo.const32(x);
                hasConstant = true;
            } else if (OpInfo.isNonRegister(x)) {
                if (nonReg != null) {
                    return null;
                }
                nonReg = x;
            } else {
                regs.add(x);
            }
        }
        if (hasConstant && (constant & 0xffffffffL) != 0) {
            if (nonReg != null) {
                return null;
            }
            nonReg = Src.of(Imm.ofInt((int) constant));
        }
        if (regs.size() + (nonReg == null ? 0 : 1) > 3) {
            return null;
        }
        while (regs.size() < 2) {
            regs.add(Src.of(Reg.RZ));
        }
        if (nonReg == null) {
            if (regs.size() == 2) {
                regs.add(Src.of(Reg.RZ));
            }
            return regs;
        }
        return List.of(regs.get(0), nonReg, regs.get(1));
    }

    private static boolean combineLogic(Instr outer, SingleDefs sd) {
        List<Src> s = outer.srcs();
        if (s.size() != 5 || OpInfo.imm(s.get(3)) == null || !outer.mods().equals(List.of("LUT"))) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            Instr inner = innerDef(s.get(i), outer, sd);
            if (inner == null || !OpInfo.is(inner, "LOP3") || inner.srcs().size() != 5
                    || OpInfo.imm(inner.srcs().get(3)) == null || !inner.mods().equals(List.of("LUT"))
                    || s.get(i).neg() || s.get(i).abs()) {
                continue;
            }
            List<Src> vars = new ArrayList<>();
            int[] innerVec = new int[3];
            for (int k = 0; k < 3; k++) {
                innerVec[k] = vector(inner.srcs().get(k), vars);
            }
            int[] outerVec = new int[3];
            for (int k = 0; k < 3; k++) {
                if (k != i) {
                    outerVec[k] = vector(s.get(k), vars);
                }
            }
            if (vars.size() > 3 || innerVec[0] < 0 || innerVec[1] < 0 || innerVec[2] < 0
                    || outerVec[(i + 1) % 3] < 0 || outerVec[(i + 2) % 3] < 0) {
                continue;
            }
            // Variables go to slots in order, the one non-register variable (if any) to the middle slot.
            List<Src> slots = arrange(vars);
            if (slots == null) {
                continue;
            }
            int[] slotVec = new int[vars.size()];
            for (int v = 0; v < vars.size(); v++) {
                slotVec[v] = Lut.input(slots.indexOf(vars.get(v)));
            }
            int innerLut = (int) (long) OpInfo.imm(inner.srcs().get(3));
            int outerLut = (int) (long) OpInfo.imm(s.get(3));
            int[] in3 = new int[3];
            for (int k = 0; k < 3; k++) {
                in3[k] = resolve(innerVec[k], slotVec);
            }
            int tVec = Lut.apply(innerLut, in3[0], in3[1], in3[2]);
            if (s.get(i).not()) {
                tVec = ~tVec & 0xff;
            }
            int[] out3 = new int[3];
            for (int k = 0; k < 3; k++) {
                out3[k] = k == i ? tVec : resolve(outerVec[k], slotVec);
            }
            int lut = Lut.apply(outerLut, out3[0], out3[1], out3[2]);
            List<Src> newSrcs = new ArrayList<>(slots);
            newSrcs.add(Src.of(Imm.ofInt(lut)));
            newSrcs.add(s.get(4));
            rewrite(outer, "LOP3", List.of("LUT"), newSrcs);
            return true;
        }
        return false;
    }

    // Truth-vector codes: 0x100 | v for a constant vector v, else the index of a variable, or 0x200 | index for
    // an inverted variable; -1 when the source cannot take part.
    private static int vector(Src x, List<Src> vars) {
        if (x.neg() || x.abs()) {
            return -1;
        }
        Long c = OpInfo.const32(x);
        if (c != null && (c == 0 || c == 0xffffffffL)) {
            return 0x100 | (c == 0 ? 0 : 0xff);
        }
        Src plain = new Src(x.value(), false, false, false);
        int idx = vars.indexOf(plain);
        if (idx < 0) {
            vars.add(plain);
            idx = vars.size() - 1;
        }
        return x.not() ? 0x200 | idx : idx;
    }

    private static int resolve(int code, int[] slotVec) {
        if ((code & 0x100) != 0) {
            return code & 0xff;
        }
        if ((code & 0x200) != 0) {
            return ~slotVec[code & 0xff] & 0xff;
        }
        return slotVec[code];
    }

    private static List<Src> arrange(List<Src> vars) {
        List<Src> regs = new ArrayList<>();
        Src nonReg = null;
        for (Src v : vars) {
            if (OpInfo.isNonRegister(v)) {
                if (nonReg != null) {
                    return null;
                }
                nonReg = v;
            } else {
                regs.add(v);
            }
        }
        List<Src> out = new ArrayList<>();
        out.add(regs.size() > 0 ? regs.get(0) : Src.of(Reg.RZ));
        out.add(nonReg != null ? nonReg : regs.size() > 1 ? regs.get(1) : Src.of(Reg.RZ));
        int third = nonReg != null ? 1 : 2;
        out.add(regs.size() > third ? regs.get(third) : Src.of(Reg.RZ));
        if (regs.size() > third + 1) {
            return null;
        }
        return out;
    }

    private static void rewrite(Instr in, String op, List<String> mods, List<Src> srcs) {
        Reg d = OpInfo.soleRDst(in);
        in.dsts().clear();
        in.dsts().add(d);
        in.setOp(OpInfo.op(op));
        in.setMods(mods);
        in.srcs().clear();
        in.srcs().addAll(srcs);
    }
}
