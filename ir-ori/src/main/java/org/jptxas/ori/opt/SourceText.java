package org.jptxas.ori.opt;

import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Sources made canonical so that two are equal exactly when they print alike, modifiers apart: a part of a tuple of
 * three or four components prints the same for either size ({@code %r5.1}). An address prints alike for different
 * operands ({@code [URZ]} is a URZ base or a uniform URZ added to a zero base), so an address source stays text.
 * (A zero register has one component: {@link Reg}'s range check.) CSE compares sources this way, as it did when
 * its keys were the sources' text.
 */
final class SourceText {
    /** The canonical size of a part of a tuple other than a pair. */
    private static final int WIDE_TUPLE = 4;

    private SourceText() {}

    /** {@code s} itself when already canonical (the common case: nothing is allocated); its text for an address. */
    static Object canonical(Src s) {
        if (s.value() instanceof Reg r) {
            Reg c = canonical(r);
            return c == r ? s : new Src(c, s.neg(), s.abs(), s.not());
        }
        if (s.value() instanceof CBank c && c.index() != null) {
            Reg index = canonical(c.index());
            return index == c.index() ? s : new Src(new CBank(c.bank(), c.offset(), index), s.neg(), s.abs(), s.not());
        }
        if (s.value() instanceof Addr a) {
            return "" + s.neg() + s.abs() + s.not() + a;
        }
        return s;
    }

    static Reg canonical(Reg r) {
        if (r.isPart() && r.comps() != 2 && r.comps() != WIDE_TUPLE) {
            return new Reg(r.file(), r.index(), WIDE_TUPLE, r.virtual(), r.part());
        }
        return r;
    }
}
