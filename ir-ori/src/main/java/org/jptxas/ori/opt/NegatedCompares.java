package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A negated integer compare is the opposite compare, as ptxas writes it: PTX's {@code not.pred} of a
 * {@code setp} result ({@code ISETP.EQ.AND a, PT, x, y, PT; PLOP3.LUT d, PT, a, PT, PT, 0xf, 0x0}) becomes
 * {@code ISETP.NE.AND d, PT, x, y, PT} when the NOT is the compare's only reader. The PLOP3 goes, and the compare
 * is again a plain one that {@link CompareChaining} can join into an {@code or.pred}/{@code and.pred} after it.
 * Integer compares only: a float compare's opposite includes the unordered case, a different condition.
 */
public final class NegatedCompares implements Pass {
    private static final Map<String, String> OPPOSITE = Map.of("EQ", "NE", "NE", "EQ", "LT", "GE", "GE", "LT",
            "GT", "LE", "LE", "GT");

    @Override
    public String name() {
        return "negated-compares";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int j = 0; j < instrs.size(); j++) {
                Instr not = instrs.get(j);
                if (!isNot(not)) {
                    continue;
                }
                if (sd == null) {
                    sd = cx.singleDefs(body);
                }
                Reg a = (Reg) not.srcs().get(0).value();
                Reg d = not.dsts().get(0);
                Instr compare = sd.soleDef(a);
                if (compare == null || sd.uses(a).size() != 1 || sd.soleDef(d) != not || !plainCompare(compare, a)) {
                    continue;
                }
                List<String> mods = new ArrayList<>(compare.mods());
                String opposite = OPPOSITE.get(mods.get(0));
                if (opposite == null) {
                    continue;
                }
                mods.set(0, opposite);
                Instr negated = new Instr(compare.op(), mods, List.of(d, Reg.PT), compare.srcs(), Guard.ALWAYS,
                        compare.line());
                if (!cx.canEncode(negated).orElse(true)) {
                    continue;
                }
                // the compare dominates the NOT, which dominates every reader of d: d may be written there
                if (!replace(body, compare, negated)) {
                    continue;
                }
                instrs.remove(not);
                j = -1; // positions in this block may have moved
                sd = null;
                changed = true;
            }
        }
        return changed;
    }

    /** {@code PLOP3.LUT d, PT, a, PT, PT, lut, 0x0} whose table is {@code ~a} there: a virtual d, a plain a. */
    private static boolean isNot(Instr in) {
        if (!OpInfo.is(in, "PLOP3") || !in.guard().isAlways() || in.dsts().size() != 2
                || !in.dsts().get(1).equals(Reg.PT) || in.srcs().size() != 5) {
            return false;
        }
        Reg d = in.dsts().get(0);
        Long lut = OpInfo.imm(in.srcs().get(3));
        Long lut2 = OpInfo.imm(in.srcs().get(4));
        if (!d.virtual() || d.file() != RegFile.P || lut == null || lut2 == null || lut2 != 0) {
            return false;
        }
        Src a = in.srcs().get(0);
        if (a.hasModifiers() || !(a.value() instanceof Reg r) || !r.virtual() || r.file() != RegFile.P) {
            return false;
        }
        for (int k = 1; k <= 2; k++) {
            Src s = in.srcs().get(k);
            if (s.hasModifiers() || !(s.value() instanceof Reg r2) || !r2.equals(Reg.PT)) {
                return false;
            }
        }
        // with b = c = true the table's bit (a, 1, 1) is bit 7 for a and bit 3 for !a
        return (lut & 0x88) == 0x08;
    }

    /** An unguarded {@code ISETP.<cmp>[.U32].AND a, PT, x, y, PT} (no carry chain). */
    private static boolean plainCompare(Instr in, Reg a) {
        return OpInfo.is(in, "ISETP") && in.guard().isAlways() && !in.mods().isEmpty()
                && in.mods().get(in.mods().size() - 1).equals("AND") && !in.mods().contains("EX")
                && in.dsts().size() == 2 && in.dsts().get(0).equals(a) && in.dsts().get(1).equals(Reg.PT)
                && in.srcs().size() == 3 && in.srcs().get(2).value() instanceof Reg acc && acc.equals(Reg.PT)
                && !in.srcs().get(2).hasModifiers();
    }

    private static boolean replace(FunctionBody body, Instr old, Instr with) {
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                if (instrs.get(i) == old) {
                    instrs.set(i, with);
                    return true;
                }
            }
        }
        return false;
    }
}
