package org.jptxas.ori.opt;

import java.util.List;
import java.util.function.Function;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Truth-table folding of {@code PLOP3.LUT d, PT, a, b, c, lut, 0x0}: the inputs whose value is known (PT, !PT, or a
 * predicate constant folding has proved) are fixed into the table; when what is left depends on no input, d is a
 * constant. PTX's flag tests compile to such chains once a subroutine is specialised to a constant argument
 * ({@code setp.eq p, flag & 1, 1; mov.pred q, 0; xor.pred r, p, q; not.pred s, r}), and ptxas 13 folds them through
 * to the branch that reads the last one; without this the branch, and its source line, stay.
 */
final class PredicateFolding {
    private PredicateFolding() {
    }

    /**
     * The value {@code in} writes to its first destination when it is an unguarded predicate PLOP3 (second
     * destination a sink) whose table, with the inputs {@code known} knows fixed, is all zeros or all ones; else null.
     * {@code known} gives a source's value (its inversion applied) or null.
     */
    static Boolean value(Instr in, Function<Src, Boolean> known) {
        Integer lut = table(in);
        if (lut == null) {
            return null;
        }
        int t = lut;
        for (int slot = 0; slot < 3; slot++) {
            Boolean v = known.apply(in.srcs().get(slot));
            if (v != null) {
                t = Lut.fix(t, slot, v);
            }
        }
        t &= 0xff;
        return t == 0 ? Boolean.FALSE : t == 0xff ? Boolean.TRUE : null;
    }

    /**
     * Rewrites {@code in} (a PLOP3 {@link #value} found constant) to the form ptxas writes a predicate constant in,
     * {@code PLOP3.LUT d, PT, PT, PT, PT, 0xff|0x0, 0x0}; false when it already is that.
     */
    static boolean makeConstant(Instr in, boolean v) {
        List<Src> s = in.srcs();
        Src pt = OpInfo.pt(true);
        Src lut = Src.of(Imm.ofInt(v ? 0xff : 0));
        if (s.get(0).equals(pt) && s.get(1).equals(pt) && s.get(2).equals(pt) && s.get(3).equals(lut)) {
            return false;
        }
        s.set(0, pt);
        s.set(1, pt);
        s.set(2, pt);
        s.set(3, lut);
        return true;
    }

    /**
     * Fixes the inputs of a PLOP3 {@link #value} could not decide that read {@code !PT} (constant folding puts a known
     * false predicate there) into its table and reads PT there instead: no target encodes a PLOP3 input of
     * {@code !PT}. False when no input reads it.
     */
    static boolean dropFalseInputs(Instr in) {
        Integer lut = table(in);
        if (lut == null) {
            return false;
        }
        int t = lut;
        boolean changed = false;
        Src notPt = OpInfo.pt(false);
        for (int slot = 0; slot < 3; slot++) {
            if (in.srcs().get(slot).equals(notPt)) {
                t = Lut.fix(t, slot, false);
                in.srcs().set(slot, OpInfo.pt(true));
                changed = true;
            }
        }
        if (changed) {
            in.srcs().set(3, Src.of(Imm.ofInt(t & 0xff)));
        }
        return changed;
    }

    /** The first table of an unguarded {@code PLOP3.LUT d, PT, a, b, c, lut, lut2} writing a P register; else null. */
    private static Integer table(Instr in) {
        if (!OpInfo.is(in, "PLOP3") || !in.guard().isAlways() || !in.mods().contains("LUT")
                || in.dsts().size() != 2 || in.srcs().size() != 5 || !OpInfo.extraDstsAreSinks(in)) {
            return null;
        }
        Reg d = in.dsts().get(0);
        if (d.file() != RegFile.P) {
            return null;
        }
        Long lut = OpInfo.imm(in.srcs().get(3));
        return lut == null ? null : (int) (long) lut;
    }
}
