package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A 64-bit low multiply read only by a 64-bit add, {@code mul.lo.s64 m, a, b; add.s64 d, y, m}, as ptxas writes
 * it: the multiply accumulates into the add's other term and the cross products go into the high word after,
 *
 * <pre>
 *   IMAD c, a.hi, b.lo, RZ ; IMAD.WIDE.U32 d, a.lo, b.lo, y ; IMAD c', a.lo, b.hi, c ; IADD3 d.hi, d.hi, c', RZ
 * </pre>
 *
 * all on the add's line (the multiply's own line keeps no code). The multiply comes from the front end as
 * {@code IMAD.WIDE.U32 t, u, v, RZ; IMAD k, x1, x2, t.hi; IMAD m.hi, x3, x4, k; MOV m.lo, t.lo} and the add as the
 * {@code IADD3} / {@code IADD3.X} carry pair. A cross product with a zero word (a zero-extended operand) is left
 * out: {@code IMAD d.hi, a.lo, b.hi, d.hi}, as ptxas has it. Copy propagation may have had the add read
 * {@code t.lo} instead of {@code m.lo} (the copy then unread or removed): the same multiply.
 */
final class WideMultiplyAdds {
    private WideMultiplyAdds() {
    }

    /** The multiply's instructions, matched; {@code low} (the copy of {@code t.lo}) null once propagated away. */
    private record Multiply(Instr wide, Instr inner, Instr outer, Instr low) {}

    /**
     * Rewrites the add whose high half is {@code hi}: the multiply-adds go into {@code inserts} before its low half,
     * which goes ({@code removed}); its high half becomes the last add of the high word. The multiply's
     * instructions are left to dead-code elimination.
     */
    static boolean fuse(FunctionBody body, Instr hi, SingleDefs sd, OptContext cx, Map<Instr, List<Instr>> inserts,
                        Set<Instr> removed) {
        Instr lo = InstructionCombining.carryPairLow(hi, sd);
        if (lo == null) {
            return false;
        }
        Src[] loTerms = InstructionCombining.twoTerms(lo.srcs().subList(0, 3));
        Src[] hiTerms = InstructionCombining.twoTerms(hi.srcs().subList(0, 3));
        if (loTerms == null || hiTerms == null) {
            return false;
        }
        for (int k = 0; k < 2; k++) {
            if (!(loTerms[k].value() instanceof Reg ml) || !ml.virtual() || !ml.isPart() || ml.part() != 0
                    || ml.comps() != 2) {
                continue;
            }
            for (int hk = 0; hk < 2; hk++) {
                if (!(hiTerms[hk].value() instanceof Reg mh) || !mh.virtual() || !mh.isPart() || mh.part() != 1
                        || mh.comps() != 2) {
                    continue;
                }
                Multiply mul = multiply(body, ml, mh, lo, hi, sd);
                Src y = mul == null ? null : addend(body, loTerms[1 - k], hiTerms[1 - hk], lo, hi, sd);
                if (y == null || y.value() instanceof CBank && !cx.aluReadsConstantBank()) {
                    continue;
                }
                Src u = mul.wide().srcs().get(0);
                Src v = mul.wide().srcs().get(1);
                if (OpInfo.isNonRegister(y) && (OpInfo.isNonRegister(u) || OpInfo.isNonRegister(v))) {
                    continue;
                }
                rewrite(body, lo, hi, mul, y, sd, inserts, removed);
                return true;
            }
        }
        return false;
    }

    /**
     * The add's other term as one 64-bit operand: a stable pair or two constant words, or a pair (a loop's variable)
     * not written between the add's halves, read whole where the low half was.
     */
    private static Src addend(FunctionBody body, Src yl, Src yh, Instr lo, Instr hi, SingleDefs sd) {
        Src y = InstructionCombining.pairAddend(yl, yh, sd);
        if (y != null) {
            return y;
        }
        if (yl.value() instanceof Reg l && yh.value() instanceof Reg h && l.virtual() && l.isPart() && h.isPart()
                && l.part() == 0 && h.part() == 1 && l.comps() == 2 && l.sameRegister(h)
                && InstructionCombining.unchangedBetween(body, l.whole(), lo, hi, sd)) {
            return Src.of(l.whole());
        }
        return null;
    }

    /**
     * Whether {@code s}, read by {@code reader}, still holds that value at {@code until}: a constant, a stable
     * register, or one not written between the two in their block (a loop's variable multiplied in the loop).
     */
    private static boolean sameValueAt(FunctionBody body, Src s, Instr reader, Instr until, SingleDefs sd) {
        if (s.hasModifiers()) {
            return false;
        }
        return InstructionCombining.availableLater(s, sd) || s.value() instanceof Reg r && r.virtual()
                && InstructionCombining.unchangedBetween(body, r, reader, until, sd);
    }

    /**
     * The lowered multiply whose result's words the add reads as {@code ml} and {@code mh}, when the add
     * ({@code lo}, {@code hi}) is its only reader, every input still holds its value at the add (read there
     * instead), and it sits in the add's block (no work moves into a loop). The add reads {@code m.lo} (the copy
     * of {@code t.lo}) or, once copy propagation went through that copy, {@code t.lo} itself, the copy then unread
     * or gone.
     */
    private static Multiply multiply(FunctionBody body, Reg ml, Reg mh, Instr lo, Instr hi, SingleDefs sd) {
        Reg m = mh.whole();
        boolean propagated = !ml.sameRegister(mh);
        if (!sd.stable(m) || !onlyReaders(m, sd, propagated ? List.of(hi) : List.of(lo, hi))) {
            return null;
        }
        Instr low = sd.soleWrite(m.component(0));
        Instr outer = sd.soleWrite(m.component(1));
        if (!(low == null && propagated || low != null && OpInfo.is(low, "MOV") && low.mods().isEmpty()
                && low.srcs().size() == 1 && !low.srcs().get(0).hasModifiers()
                && low.srcs().get(0).value() instanceof Reg copied && copied.isPart() && copied.part() == 0
                && (!propagated || copied.equals(ml)))
                || outer == null || !plainImad(outer) || !(outer.srcs().get(2).value() instanceof Reg k)
                || k.isPart()) {
            return null;
        }
        Reg tl = propagated ? ml : (Reg) low.srcs().get(0).value();
        Instr inner = sd.soleDef(k);
        Instr wide = sd.soleDef(tl.whole());
        if (inner == null || !plainImad(inner) || !onlyReaders(k, sd, List.of(outer))
                || !(inner.srcs().get(2).value() instanceof Reg th) || !th.isPart() || th.part() != 1
                || !th.sameRegister(tl) || wide == null || !OpInfo.is(wide, "IMAD_WIDE")
                || !wide.mods().equals(List.of("U32")) || wide.srcs().size() != 3 || wide.dsts().size() != 1
                || !OpInfo.isRZ(wide.srcs().get(2))) {
            return null;
        }
        // t's readers: the inner multiply, the copy (if still there) and, propagated, the add
        List<Instr> tReaders = new ArrayList<>(List.of(inner));
        if (low != null) {
            tReaders.add(low);
        }
        if (propagated) {
            tReaders.add(lo);
        }
        if (!onlyReaders(tl.whole(), sd, tReaders)) {
            return null;
        }
        for (Instr reader : List.of(wide, inner, outer)) {
            for (Src s : reader.srcs().subList(0, 2)) {
                if (!sameValueAt(body, s, reader, hi, sd)) {
                    return null;
                }
            }
        }
        SingleDefs.Position at = sd.position(lo);
        for (Instr in : java.util.Arrays.asList(wide, inner, outer, low, hi)) {
            SingleDefs.Position p = in == null ? at : sd.position(in);
            if (p == null || at == null || p.block() != at.block()) {
                return null;
            }
        }
        return new Multiply(wide, inner, outer, low);
    }

    /** {@code IMAD d, x, y, z}: one 32-bit result, no modifiers, no negated or inverted sources. */
    private static boolean plainImad(Instr in) {
        return OpInfo.is(in, "IMAD") && in.mods().isEmpty() && in.srcs().size() == 3 && in.dsts().size() == 1
                && in.dsts().get(0).virtual() && in.srcs().stream().noneMatch(Src::hasModifiers);
    }

    /** Whether every reader of {@code r} is one of {@code readers}. */
    private static boolean onlyReaders(Reg r, SingleDefs sd, List<Instr> readers) {
        for (Instr u : sd.uses(r)) {
            if (readers.stream().noneMatch(x -> x == u)) {
                return false;
            }
        }
        return true;
    }


    private static void rewrite(FunctionBody body, Instr lo, Instr hi, Multiply mul, Src y, SingleDefs sd,
                                Map<Instr, List<Instr>> inserts, Set<Instr> removed) {
        int line = lo.line();
        Reg d = OpInfo.soleRDst(hi).whole();
        Src x1 = mul.inner().srcs().get(0);
        Src x2 = mul.inner().srcs().get(1);
        Src x3 = mul.outer().srcs().get(0);
        Src x4 = mul.outer().srcs().get(1);
        boolean first = !zero(x1, sd) && !zero(x2, sd);
        boolean second = !zero(x3, sd) && !zero(x4, sd);
        List<Instr> before = new ArrayList<>();
        Src cross = null;
        if (first && second) {
            Reg c = body.newVirtual(RegFile.R, 1);
            before.add(instr("IMAD", List.of(), c, List.of(x3, x4, Src.of(Reg.RZ)), line));
            cross = Src.of(c);
        }
        // the whole sum lands in d, whose high word then takes the cross products (a second write of d.hi, as
        // ptxas has it: the register allocator coalesces whole registers only, so a copy of w.lo would stay)
        before.add(instr("IMAD_WIDE", List.of("U32"), d,
                List.of(mul.wide().srcs().get(0), mul.wide().srcs().get(1), y), line));
        Src dHi = Src.of(d.component(1));
        if (first && second) {
            Reg c2 = body.newVirtual(RegFile.R, 1);
            before.add(instr("IMAD", List.of(), c2, List.of(x1, x2, cross), line));
            InstructionCombining.rewrite(hi, "IADD3", List.of(), List.of(dHi, Src.of(c2), Src.of(Reg.RZ)));
        } else if (first || second) {
            InstructionCombining.rewrite(hi, "IMAD", List.of(), first ? List.of(x1, x2, dHi) : List.of(x3, x4, dHi));
        } else {
            removed.add(hi);
        }
        removed.add(lo);
        inserts.computeIfAbsent(lo, x -> new ArrayList<>()).addAll(before);
    }

    /** Zero: RZ, an immediate 0, or a register whose one write is a move of one of those. */
    private static boolean zero(Src s, SingleDefs sd) {
        if (InstructionCombining.isZero(s)) {
            return true;
        }
        if (!(s.value() instanceof Reg r) || !r.virtual() || s.hasModifiers()) {
            return false;
        }
        Instr def = sd.soleWrite(r);
        return def != null && OpInfo.is(def, "MOV") && def.mods().isEmpty() && def.srcs().size() == 1
                && InstructionCombining.isZero(def.srcs().get(0));
    }

    private static Instr instr(String op, List<String> mods, Reg d, List<Src> srcs, int line) {
        Instr in = Instr.of(OpInfo.op(op), List.of(d), srcs);
        in.setMods(mods);
        in.setLine(line);
        return in;
    }
}
