package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A select of the larger (or smaller) of the two values an integer compare read is IMNMX, as ptxas writes PTX's
 * {@code setp.ge.s32 p, a, b; selp.s32 d, a, b, p}: {@code ISETP.GE.AND p, PT, a, b, PT; SEL d, a, b, p} becomes
 * {@code IMNMX d, a, b, !PT} (a maximum; PT is the minimum) where the compare is the last write of p before the SEL
 * in its block and neither a nor b is written between; the compare is left to dead-code elimination, which removes
 * it when the SEL was its only reader (a predicate unrolled copies share is not one definition). GT and GE (LT
 * and LE) pick the same value: they differ only where a equals b. {@code .U32} compares give {@code IMNMX.U32}.
 * Integer compares only: a float compare with a NaN operand selects the second value, where FMNMX returns the
 * operand that is not NaN.
 */
public final class MinMaxSelection implements Pass {
    @Override
    public String name() {
        return "minmax";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int j = 0; j < instrs.size(); j++) {
                Instr sel = instrs.get(j);
                if (!isPlainSelect(sel)) {
                    continue;
                }
                Src which = sel.srcs().get(2);
                Reg p = (Reg) which.value();
                int at = Rewrites.lastWrite(instrs, j, p);
                Instr compare = at < 0 ? null : instrs.get(at);
                if (compare == null || !isOrderingCompare(compare, p) || writesBetween(instrs, at, j, compare.srcs())) {
                    continue; // the compared values must still be there at the SEL
                }
                Src a = compare.srcs().get(0);
                Src x = sel.srcs().get(0);
                Src y = sel.srcs().get(1);
                boolean straight = x.equals(a) && y.equals(compare.srcs().get(1));
                if (!straight && !(y.equals(a) && x.equals(compare.srcs().get(1)))) {
                    continue;
                }
                // the SEL takes a where (p, or !p if it reads the negation) holds
                boolean takesAWhereTrue = straight != which.not();
                boolean greater = compare.mods().get(0).startsWith("G");
                boolean maximum = greater == takesAWhereTrue;
                List<String> mods = compare.mods().contains("U32") ? List.of("U32") : List.of();
                Instr minMax = new Instr(OpInfo.op("IMNMX"), mods, List.of(sel.dsts().get(0)),
                        List.of(x, y, maximum ? Src.of(Reg.PT).inverted() : Src.of(Reg.PT)), sel.guard(), sel.line());
                if (!cx.canEncode(minMax).orElse(true)) {
                    continue;
                }
                instrs.set(j, minMax);
                changed = true;
            }
        }
        return changed;
    }

    /** {@code SEL d, x, y, [!]p}: one 32-bit virtual result, plain x and y, a virtual predicate p. */
    private static boolean isPlainSelect(Instr in) {
        if (!OpInfo.is(in, "SEL") || !in.mods().isEmpty() || in.srcs().size() != 3) {
            return false;
        }
        Reg d = OpInfo.soleRDst(in);
        Src which = in.srcs().get(2);
        return d != null && d.virtual() && !in.srcs().get(0).hasModifiers() && !in.srcs().get(1).hasModifiers()
                && !which.neg() && !which.abs() && which.value() instanceof Reg p && p.virtual()
                && p.file() == RegFile.P;
    }

    /** An unguarded {@code ISETP.{LT,LE,GT,GE}[.U32].AND p, PT, a, b, PT} of plain a and b. */
    private static boolean isOrderingCompare(Instr in, Reg p) {
        if (!OpInfo.is(in, "ISETP") || !in.guard().isAlways() || in.dsts().size() != 2 || !in.dsts().get(0).equals(p)
                || !in.dsts().get(1).equals(Reg.PT) || in.srcs().size() != 3) {
            return false;
        }
        List<String> m = in.mods();
        boolean ordering = !m.isEmpty() && List.of("LT", "LE", "GT", "GE").contains(m.get(0));
        boolean shape = m.size() == 2 && m.get(1).equals("AND")
                || m.size() == 3 && m.get(1).equals("U32") && m.get(2).equals("AND");
        Src acc = in.srcs().get(2);
        return ordering && shape && acc.value() instanceof Reg r && r.equals(Reg.PT) && !acc.hasModifiers()
                && !in.srcs().get(0).hasModifiers() && !in.srcs().get(1).hasModifiers();
    }

    /** True when an instruction strictly between {@code from} and {@code to} writes a register {@code srcs} read. */
    private static boolean writesBetween(List<Instr> instrs, int from, int to, List<Src> srcs) {
        List<Reg> read = new java.util.ArrayList<>();
        for (Src s : srcs) {
            Instr.addRegsRead(s, read);
        }
        for (Reg r : read) {
            if (!r.virtual() && !r.isZero()) {
                return true; // a machine register may overlap a wider write; not worth telling apart here
            }
        }
        for (int k = from + 1; k < to; k++) {
            for (Reg r : read) {
                if (Rewrites.writes(instrs.get(k), r)) {
                    return true;
                }
            }
        }
        return false;
    }
}
