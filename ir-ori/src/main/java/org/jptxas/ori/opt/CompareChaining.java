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
 * from PTX's {@code or.pred}) where {@code a} is {@code ISETP.GE.AND a, PT, x, y, PT} becomes
 * {@code ISETP.GE.OR d, PT, x, y, b}; likewise AND ({@code 0xc0}) and XOR ({@code 0x3c}), and FSETP and DSETP.
 * Chains of conditions become chains of compares, each accumulating the one before, with no PLOP3 between them. A
 * join with negated inputs (PTX's {@code not.pred}, or if-conversion's {@code a | !b}) takes the other input negated
 * as the accumulator, and the compare's own negation as the opposite integer compare (for XOR, as the other input's
 * negation).
 * <p>
 * As ptxas 13 does (checked on small kernels, sm_90: and/or/xor.pred of ISETP, FSETP and DSETP results), the join
 * goes into the compare of its <em>first</em> input when that is a plain compare, else into the second's; a compare
 * that other instructions also read is repeated for the join (ptxas's Triton kernels: one {@code setp.lt.s32} read
 * by four {@code and.pred}s becomes four {@code ISETP.LT.AND d, PT, x, y, !P} and the setp goes), and the compare
 * stays for its other readers. The joined compare carries no PTX line: ptxas writes no line-table row for it, so it
 * continues the row before it (neither the setp's nor the join's source line is annotated for it).
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
                Instr[] compares = {chainable(join, 0, instrs, j, sd), chainable(join, 1, instrs, j, sd)};
                boolean secondStays = compares[1] != null && instrs.contains(compares[1])
                        && sd.uses(compares[1].dsts().get(0)).size() > 1;
                for (int side = 0; side < 2; side++) {
                    // a compare of another block joins only as ptxas was seen to: the first input's, when the
                    // second's compare stays anyway for other readers (matrix_free dim-3); with the second's going
                    // with the join (dim-2's or.pred of an outer setp and a loop's setp.ne) ptxas joins into that
                    if (compares[side] != null && !instrs.contains(compares[side]) && !(side == 0 && secondStays)) {
                        compares[side] = null;
                    }
                }
                for (int side = 0; side < 2; side++) {
                    Instr compare = compares[side];
                    if (compare == null) {
                        continue;
                    }
                    Src other = join.srcs().get(1 - side);
                    boolean xor = logic.join().equals("XOR");
                    // x ^ !y is !(x ^ y): for XOR both negations go to the accumulator
                    if (xor ? logic.inverted(0) != logic.inverted(1) : logic.inverted(1 - side)) {
                        other = other.inverted();
                    }
                    List<String> mods = new ArrayList<>(compare.mods());
                    if (!xor && logic.inverted(side)) {
                        // the compare's own result negated: the opposite integer compare
                        String opposite = OPPOSITE.get(mods.get(0));
                        if (!OpInfo.is(compare, "ISETP") || opposite == null) {
                            continue;
                        }
                        mods.set(0, opposite);
                    }
                    mods.set(mods.indexOf("AND"), logic.join());
                    Instr chained = new Instr(compare.op(), mods, List.of(join.dsts().get(0), Reg.PT),
                            List.of(compare.srcs().get(0), compare.srcs().get(1), other), Guard.ALWAYS, 0);
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
     * A two-input join: {@code join} ("OR"/"AND"/"XOR") of its inputs, each negated where {@code inverted} says
     * ({@code 0xf3} is {@code a | !b}, as if-conversion joins a branch's guards).
     */
    private record Logic(String join, boolean invertA, boolean invertB) {
        boolean inverted(int side) {
            return side == 0 ? invertA : invertB;
        }

        /** The join whose truth table (inputs a, b; the third input true) is {@code lut}'s, or null. */
        static Logic of(long lut) {
            for (String join : List.of("OR", "AND", "XOR")) {
                for (int n = 0; n < 4; n++) {
                    boolean na = (n & 1) != 0;
                    boolean nb = (n & 2) != 0;
                    boolean all = true;
                    for (int a = 0; a < 2 && all; a++) {
                        for (int b = 0; b < 2 && all; b++) {
                            boolean x = (a != 0) != na;
                            boolean y = (b != 0) != nb;
                            boolean want = join.equals("OR") ? x || y : join.equals("AND") ? x && y : x != y;
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

    /** Whether {@code in} is a join this pass writes into one of its inputs' compares. */
    static boolean isJoin(Instr in) {
        return logicOf(in) != null;
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

    /** Whether the compare's two operands are constants, RZ or virtual registers with one dominating definition. */
    private static boolean stableOperands(Instr def, SingleDefs sd) {
        for (int k = 0; k < 2; k++) {
            Src s = def.srcs().get(k);
            if (s.value() instanceof Reg r && !r.equals(Reg.RZ) && (!r.virtual() || sd.soleDef(r) == null)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The compare defining the join's source {@code side}, when it is the only definition of that predicate, an
     * unguarded {@code ISETP/FSETP/DSETP .AND p, PT, x, y, PT} earlier in the join's block, and nothing in between
     * rewrites x or y (the compare may have other readers: it is then repeated at the join).
     */
    private static Instr chainable(Instr join, int side, List<Instr> instrs, int at, SingleDefs sd) {
        Reg p = (Reg) join.srcs().get(side).value();
        Instr def = sd.soleDef(p);
        if (def == null || !def.guard().isAlways()
                || !(OpInfo.is(def, "ISETP") || OpInfo.is(def, "FSETP") || OpInfo.is(def, "DSETP"))
                || !def.mods().contains("AND") || def.mods().contains("EX")
                || def.dsts().size() != 2 || !def.dsts().get(0).equals(p) || !def.dsts().get(1).equals(Reg.PT)
                || def.srcs().size() != 3 || !(def.srcs().get(2).value() instanceof Reg acc) || !acc.equals(Reg.PT)
                || def.srcs().get(2).not() || join.srcs().get(0).value().equals(join.srcs().get(1).value())) {
            return null;
        }
        int from = instrs.lastIndexOf(def);
        if (from < 0) {
            // a compare of another block (a loop-invariant bounds check before a loop): ptxas 13 still joins into
            // it, repeating it at the join, when its operands hold one value wherever read (matrix_free dim-3's
            // and.pred of an outer setp.ne with a setp.eq in the loop: the outer compare is repeated in the loop,
            // accumulating the inner one, which stays as a compare of its own for that join)
            return stableOperands(def, sd) ? def : null;
        }
        if (from > at) {
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
