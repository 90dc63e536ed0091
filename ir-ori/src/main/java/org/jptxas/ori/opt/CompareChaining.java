package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Guards joined into the compare, as ptxas writes bounds checks: {@code PLOP3.LUT d, PT, a, b, PT, 0xfc} (a or b,
 * from PTX's {@code or.pred}) where {@code b} is the only use of {@code ISETP.GE.AND b, PT, x, y, PT} becomes
 * {@code ISETP.GE.OR d, PT, x, y, a}; likewise AND ({@code 0xc0}) and FSETP. Chains of conditions become chains
 * of compares, each accumulating the one before, with no PLOP3 between them. A join with negated inputs (PTX's
 * {@code not.pred}, or if-conversion's {@code a | !b}) takes the other input negated as the accumulator, and the
 * compare's own negation as the opposite integer compare.
 */
public final class CompareChaining implements Pass {

    @Override
    public String name() {
        return "chain";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int j = 0; j < instrs.size(); j++) {
                Instr join = instrs.get(j);
                Logic logic = logicOf(join);
                if (logic == null) {
                    continue;
                }
                for (int side = 1; side >= 0; side--) {
                    Instr compare = chainable(join, side, instrs, j, sd);
                    if (compare == null) {
                        continue;
                    }
                    Src other = join.srcs().get(1 - side);
                    if (logic.inverted(1 - side)) {
                        other = other.inverted();
                    }
                    List<String> mods = new ArrayList<>(compare.mods());
                    if (logic.inverted(side)) {
                        // the compare's own result negated: the opposite integer compare
                        String opposite = OPPOSITE.get(mods.get(0));
                        if (!OpInfo.is(compare, "ISETP") || opposite == null) {
                            continue;
                        }
                        mods.set(0, opposite);
                    }
                    mods.set(mods.indexOf("AND"), logic.join());
                    Instr chained = new Instr(compare.op(), mods, List.of(join.dsts().get(0), Reg.PT),
                            List.of(compare.srcs().get(0), compare.srcs().get(1), other), Guard.ALWAYS,
                            join.line());
                    if (!cx.canEncode(chained).orElse(true)) {
                        continue;
                    }
                    instrs.set(j, chained);
                    changed = true;
                    break;
                }
            }
        }
        return changed;
    }

    private static final java.util.Map<String, String> OPPOSITE = java.util.Map.of("EQ", "NE", "NE", "EQ", "LT",
            "GE", "GE", "LT", "GT", "LE", "LE", "GT");

    /**
     * A two-input join: {@code join} ("OR"/"AND") of its inputs, each negated where {@code inverted} says
     * ({@code 0xf3} is {@code a | !b}, as if-conversion joins a branch's guards).
     */
    private record Logic(String join, boolean invertA, boolean invertB) {
        boolean inverted(int side) {
            return side == 0 ? invertA : invertB;
        }

        /** The join whose truth table (inputs a, b; the third input true) is {@code lut}'s, or null. */
        static Logic of(long lut) {
            for (String join : List.of("OR", "AND")) {
                for (int n = 0; n < 4; n++) {
                    boolean na = (n & 1) != 0;
                    boolean nb = (n & 2) != 0;
                    boolean all = true;
                    for (int a = 0; a < 2 && all; a++) {
                        for (int b = 0; b < 2 && all; b++) {
                            boolean x = (a != 0) != na;
                            boolean y = (b != 0) != nb;
                            boolean want = join.equals("OR") ? x || y : x && y;
                            all = ((lut >> (a * 4 + b * 2 + 1)) & 1) == (want ? 1 : 0);
                        }
                    }
                    if (all) {
                        return new Logic(join, na, nb);
                    }
                }
            }
            return null;
        }
    }

    /** The join of an unguarded two-input PLOP3 into one virtual predicate, else null. */
    private static Logic logicOf(Instr in) {
        if (!OpInfo.is(in, "PLOP3") || !in.guard().isAlways() || in.dsts().size() != 2
                || !in.dsts().get(1).equals(Reg.PT) || in.srcs().size() != 5) {
            return null;
        }
        Reg d = in.dsts().get(0);
        Long lut = OpInfo.imm(in.srcs().get(3));
        Long lut2 = OpInfo.imm(in.srcs().get(4));
        if (!d.virtual() || d.file() != RegFile.P || lut == null || lut2 == null || lut2 != 0
                || !(in.srcs().get(2).value() instanceof Reg c) || !c.equals(Reg.PT) || in.srcs().get(2).not()) {
            return null;
        }
        for (int i = 0; i < 2; i++) {
            Src s = in.srcs().get(i);
            if (s.hasModifiers() || !(s.value() instanceof Reg r) || r.file() != RegFile.P) {
                return null;
            }
        }
        return Logic.of(lut);
    }

    /**
     * The compare defining the join's source {@code side}, when the join is its only reader, it is an unguarded
     * {@code ISETP/FSETP .AND p, PT, x, y, PT} earlier in the block, and nothing in between rewrites x or y.
     */
    private static Instr chainable(Instr join, int side, List<Instr> instrs, int at, SingleDefs sd) {
        Reg p = (Reg) join.srcs().get(side).value();
        Instr def = sd.soleDef(p);
        if (def == null || sd.uses(p).size() != 1 || !def.guard().isAlways()
                || !(OpInfo.is(def, "ISETP") || OpInfo.is(def, "FSETP")) || !def.mods().contains("AND")
                || def.dsts().size() != 2 || !def.dsts().get(0).equals(p) || !def.dsts().get(1).equals(Reg.PT)
                || def.srcs().size() != 3 || !(def.srcs().get(2).value() instanceof Reg acc) || !acc.equals(Reg.PT)
                || def.srcs().get(2).not() || join.srcs().get(0).value().equals(join.srcs().get(1).value())) {
            return null;
        }
        int from = instrs.lastIndexOf(def);
        if (from < 0 || from > at) {
            return null;
        }
        for (int i = from + 1; i < at; i++) {
            Instr in = instrs.get(i);
            for (int k = 0; k < 2; k++) {
                if (def.srcs().get(k).value() instanceof Reg r && Rewrites.writes(in, r)) {
                    return null;
                }
            }
        }
        return def;
    }
}
