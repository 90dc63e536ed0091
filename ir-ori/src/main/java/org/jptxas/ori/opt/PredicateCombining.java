package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * A predicate operation ({@code PLOP3}) over a single-use integer compare and at most one other predicate becomes
 * that compare with a combining operation, as ptxas writes guards: {@code p = !(a == b)} is {@code ISETP.NE},
 * {@code p = (a > b) | !q} is {@code ISETP.GT.OR p, a, b, !q}. Chains of or-ed and negated guards (if-conversion's,
 * the front end's {@code not.pred}/{@code or.pred}) so lose one dependent instruction per link.
 */
final class PredicateCombining {
    private PredicateCombining() {}

    private static final Map<String, String> INVERSE = Map.of("EQ", "NE", "NE", "EQ", "LT", "GE", "GE", "LT",
            "GT", "LE", "LE", "GT");

    /** The combining operations, by name, as functions of the compare's result and the other predicate. */
    private static final List<String> OPS = List.of("AND", "OR", "XOR");

    static boolean intoCompare(Instr outer, SingleDefs sd, OptContext cx) {
        List<Src> s = outer.srcs();
        if (!outer.guard().isAlways() || !outer.mods().equals(List.of("LUT")) || s.size() != 5
                || OpInfo.imm(s.get(3)) == null || outer.dsts().size() != 2 || !outer.dsts().get(1).isZero()
                || outer.dsts().get(0).isZero()) {
            return false;
        }
        int lut = (int) (long) OpInfo.imm(s.get(3));
        for (int i = 0; i < 3; i++) {
            Instr cmp = compare(s.get(i), outer, sd);
            if (cmp == null) {
                continue;
            }
            // the one other predicate the function reads (null: none); constant slots are folded in
            Src other = null;
            boolean fits = true;
            for (int k = 0; k < 3 && fits; k++) {
                if (k == i || OpInfo.constPred(s.get(k)) != null) {
                    continue;
                }
                Src plain = new Src(s.get(k).value(), false, false, false);
                if (!(plain.value() instanceof Reg r) || !r.virtual() || !sd.stable(r)
                        || other != null && !other.equals(plain) || Rewrites.sameReg(r, (Reg) s.get(i).value())) {
                    fits = false;
                }
                other = plain;
            }
            if (!fits) {
                continue;
            }
            // the truth table f[t][o] of the compare's result t and the other predicate o
            boolean[][] f = new boolean[2][2];
            for (int t = 0; t < 2; t++) {
                for (int o = 0; o < 2; o++) {
                    int idx = 0;
                    for (int k = 0; k < 3; k++) {
                        Boolean c = OpInfo.constPred(s.get(k));
                        boolean v = c != null ? c : (k == i ? t == 1 : o == 1) ^ s.get(k).not();
                        idx |= (v ? 1 : 0) << (2 - k);
                    }
                    f[t][o] = (lut >> idx & 1) != 0;
                }
            }
            Instr combined = match(f, cmp, other, outer);
            if (combined != null && cx.canEncode(combined).orElse(true)) {
                outer.setOp(combined.op());
                outer.setMods(combined.mods());
                outer.srcs().clear();
                outer.srcs().addAll(combined.srcs());
                return true;
            }
        }
        return false;
    }

    /** The single-use, stable, unguarded plain integer compare ({@code ISETP.cc[.U32].AND p, PT, a, b, PT}). */
    private static Instr compare(Src s, Instr outer, SingleDefs sd) {
        if (!(s.value() instanceof Reg t) || !t.virtual() || t.isPart() || !t.file().isPredicate()) {
            return null;
        }
        Instr def = sd.soleDef(t);
        if (def == null || def == outer || !OpInfo.is(def, "ISETP") || sd.uses(t).size() != 1
                || !def.guard().isAlways() || def.dsts().size() != 2 || !def.dsts().get(1).isZero()
                || def.srcs().size() != 3 || !Boolean.TRUE.equals(OpInfo.constPred(def.srcs().get(2)))) {
            return null;
        }
        List<String> m = def.mods();
        boolean plain = m.size() == 2 && m.get(1).equals("AND")
                || m.size() == 3 && m.get(1).equals("U32") && m.get(2).equals("AND");
        if (!plain || !INVERSE.containsKey(m.get(0))) {
            return null;
        }
        for (Reg r : def.usedRegs()) {
            if (r.virtual() ? !sd.stable(r) : !r.isZero()) {
                return null;
            }
        }
        return def;
    }

    private static Instr match(boolean[][] f, Instr cmp, Src other, Instr outer) {
        for (String op : OPS) {
            for (int nt = 0; nt < 2; nt++) {
                for (int no = 0; no < 2; no++) {
                    if (other == null && (no == 1 || !op.equals("AND"))) {
                        continue;
                    }
                    boolean same = true;
                    for (int t = 0; t < 2 && same; t++) {
                        for (int o = 0; o < 2 && same; o++) {
                            boolean a = (t ^ nt) == 1;
                            boolean b = other == null || (o ^ no) == 1;
                            boolean v = switch (op) {
                                case "AND" -> a && b;
                                case "OR" -> a || b;
                                default -> a ^ b;
                            };
                            same = v == f[t][o];
                        }
                    }
                    if (!same) {
                        continue;
                    }
                    List<String> mods = new ArrayList<>(cmp.mods());
                    if (nt == 1) {
                        mods.set(0, INVERSE.get(mods.get(0)));
                    }
                    mods.set(mods.size() - 1, op);
                    Src combine = other == null ? OpInfo.pt(true) : no == 1 ? other.inverted() : other;
                    return new Instr(cmp.op(), mods, outer.dsts(), List.of(cmp.srcs().get(0), cmp.srcs().get(1),
                            combine), outer.guard(), outer.line());
                }
            }
        }
        return null;
    }
}
