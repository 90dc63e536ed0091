package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** Register substitution inside an instruction, in every place a register can be read. */
final class Rewrites {
    private Rewrites() {}

    /** {@code to} read where {@code r} (the whole of {@code from} or one of its parts) was read. */
    private static Reg substitute(Reg r, Reg to) {
        return r.isPart() ? to.component(r.part()) : to;
    }

    /** Replaces every read of {@code from} by {@code to} (same file and width); returns whether any changed. */
    static boolean replaceUses(Instr in, Reg from, Reg to) {
        boolean changed = false;
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            if (s.value() instanceof Reg r && r.sameRegister(from)) {
                srcs.set(i, new Src(substitute(r, to), s.neg(), s.abs(), s.not()));
                changed = true;
            } else if (s.value() instanceof CBank c && c.index() != null && c.index().sameRegister(from)) {
                srcs.set(i, new Src(new CBank(c.bank(), c.offset(), substitute(c.index(), to)), s.neg(), s.abs(), s.not()));
                changed = true;
            } else if (s.value() instanceof Addr a) {
                Reg base = a.base().sameRegister(from) ? substitute(a.base(), to) : a.base();
                Reg ub = a.uniformBase() != null && a.uniformBase().sameRegister(from) ? substitute(a.uniformBase(), to) : a.uniformBase();
                if (base != a.base() || ub != a.uniformBase()) {
                    srcs.set(i, new Src(new Addr(base, ub, a.offset()), s.neg(), s.abs(), s.not()));
                    changed = true;
                }
            }
        }
        Guard g = in.guard();
        if (!g.isAlways() && g.predicate().sameRegister(from)) {
            in.setGuard(new Guard(substitute(g.predicate(), to), g.negated()));
            changed = true;
        }
        return changed;
    }

    /** Whether {@code in} writes register {@code r}. */
    static boolean writes(Instr in, Reg r) {
        for (Reg d : in.dsts()) {
            if (d.sameRegister(r)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code in} reads register {@code r} anywhere. */
    static boolean reads(Instr in, Reg r) {
        for (Reg u : in.usedRegs()) {
            if (u.sameRegister(r)) {
                return true;
            }
        }
        return false;
    }
}
