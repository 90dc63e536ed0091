package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** Register substitution inside an instruction, in every place a register can be read. */
final class Rewrites {
    private Rewrites() {}

    /**
     * What a read register becomes: null when the renaming leaves it alone. Applied to each register an instruction
     * reads (sources, constant-bank indexes, address bases, the guard) by {@link #renameUses}.
     */
    interface Renaming {
        Reg renamed(Reg r);
    }

    /** Every read of one register {@code from} (whole or a part) reads {@code to} (same file and width). */
    private record OneRegister(Reg from, Reg to) implements Renaming {
        @Override
        public Reg renamed(Reg r) {
            if (!r.sameRegister(from)) {
                return null;
            }
            return r.isPart() ? to.component(r.part()) : to;
        }
    }

    /** Replaces every read of {@code from} by {@code to} (same file and width); returns whether any changed. */
    static boolean replaceUses(Instr in, Reg from, Reg to) {
        // the renaming object only for an instruction it changes (which allocates new sources anyway)
        return reads(in, from) && renameUses(in, new OneRegister(from, to));
    }

    /** Renames, by {@code renaming}, every register {@code in} reads; returns whether any was renamed. */
    static boolean renameUses(Instr in, Renaming renaming) {
        boolean changed = false;
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            Operand w = null;
            if (s.value() instanceof Reg r) {
                w = renaming.renamed(r);
            } else if (s.value() instanceof CBank c && c.index() != null) {
                Reg index = renaming.renamed(c.index());
                w = index == null ? null : new CBank(c.bank(), c.offset(), index);
            } else if (s.value() instanceof Addr a) {
                Reg base = renaming.renamed(a.base());
                Reg ub = a.uniformBase() == null ? null : renaming.renamed(a.uniformBase());
                if (base != null || ub != null) {
                    w = new Addr(base != null ? base : a.base(), ub != null ? ub : a.uniformBase(), a.offset());
                }
            }
            if (w != null) {
                srcs.set(i, new Src(w, s.neg(), s.abs(), s.not()));
                changed = true;
            }
        }
        Guard g = in.guard();
        if (!g.isAlways()) {
            Reg p = renaming.renamed(g.predicate());
            if (p != null) {
                in.setGuard(new Guard(p, g.negated()));
                changed = true;
            }
        }
        return changed;
    }

    /** Whether {@code in} writes register {@code r}. */
    static boolean writes(Instr in, Reg r) {
        List<Reg> dsts = in.dsts();
        for (int i = 0; i < dsts.size(); i++) { // indexed: C1 allocates a for-each's iterator
            if (dsts.get(i).sameRegister(r)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code in} reads register {@code r} anywhere. */
    static boolean reads(Instr in, Reg r) {
        List<Reg> used = in.usedRegs();
        for (int i = 0; i < used.size(); i++) {
            if (used.get(i).sameRegister(r)) {
                return true;
            }
        }
        return false;
    }

    /** The index of the last instruction before {@code to} in {@code instrs} that writes {@code r}, or -1. */
    static int lastWrite(List<Instr> instrs, int to, Reg r) {
        for (int k = to - 1; k >= 0; k--) {
            if (writes(instrs.get(k), r)) {
                return k;
            }
        }
        return -1;
    }
}
