package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Instruction combining through single-use temporaries, as ptxas's idioms have it: multiply + add into IMAD,
 * shift-left + add into LEA, arithmetic shift-right + add into LEA.HI.SX32 (with a carry-in, LEA.HI.X.SX32: the high
 * half of a 64-bit add of a sign-extended 32-bit value), two IADD3 into one (constants summed), chains of LOP3 over at most three distinct
 * inputs into one LOP3 with the composed truth table, a 64-bit multiply read only by a 64-bit add into the
 * multiply-add ptxas writes ({@link WideMultiplyAdds}), a mask before a multiply by a power of two moved after it
 * ({@link MaskedShifts}). The inner instruction's register inputs must hold the same value at the outer one
 * (stable, or not written between the two) so they may be read there; the inner instruction is left dead.
 */
public final class InstructionCombining implements Pass {
    @Override
    public String name() {
        return "combine";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        java.util.Set<Instr> removed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        // instructions a rule adds, each list to go before its key (the block is not edited while walked)
        java.util.Map<Instr, List<Instr>> inserts = new java.util.IdentityHashMap<>();
        SignFillNumbering fillNumbers = new SignFillNumbering(body, sd); // numbers the fills when first asked
        for (BasicBlock b : body.blocks()) {
            for (Instr outer : b.instrs()) {
                if (removed.contains(outer)) {
                    continue;
                }
                if (OpInfo.is(outer, "IADD3") && outer.mods().equals(List.of("X"))) {
                    changed |= combineWideAdd(outer, sd, removed, cx)
                            || WideMultiplyAdds.fuse(body, outer, sd, cx, inserts, removed)
                            || combineSignFill(body, outer, sd, removed, cx, fillNumbers);
                    continue;
                }
                if (MaskedShifts.moveMask(body, outer, sd, inserts)) {
                    changed = true;
                    continue;
                }
                if (!plainResult(outer)) {
                    continue;
                }
                changed |= switch (outer.op().name()) {
                    case "IADD3" -> combineAdd(body, outer, sd);
                    case "LOP3" -> combineLogic(body, outer, sd);
                    default -> false;
                };
            }
        }
        for (BasicBlock b : body.blocks()) {
            if (!inserts.isEmpty()) {
                List<Instr> merged = new ArrayList<>();
                for (Instr in : b.instrs()) {
                    merged.addAll(inserts.getOrDefault(in, List.of()));
                    merged.add(in);
                }
                b.instrs().clear();
                b.instrs().addAll(merged);
            }
            b.instrs().removeIf(removed::contains);
        }
        return changed;
    }

    /** One 32-bit virtual R result, predicate outputs unused, no carry-in. */
    private static boolean plainResult(Instr in) {
        Reg d = OpInfo.soleRDst(in);
        return d != null && d.virtual() && !in.mods().contains("X") && !in.mods().contains("HI");
    }

    /** {@code SHF.R.S32.HI d, RZ, n, x}: the 32-bit {@code x >> n}, sign filled (its .HI names the funnel's half). */
    private static boolean arithmeticShiftRight(Instr in) {
        Reg d = OpInfo.soleRDst(in);
        return d != null && d.virtual() && OpInfo.is(in, "SHF") && in.mods().equals(List.of("R", "S32", "HI"))
                && in.srcs().size() == 3 && OpInfo.isRZ(in.srcs().get(0));
    }

    /**
     * The single-use temporary's unguarded definition, if {@code s} reads one, for {@code outer} to absorb. Its
     * register inputs are read again at {@code outer}: each must be stable, or (a variable a loop carries, say) not
     * written between the two in their block, as ptxas combines through the value whatever the variable holds later.
     */
    static Instr innerDef(FunctionBody body, Src s, Instr outer, SingleDefs sd) {
        if (!(s.value() instanceof Reg t) || !t.virtual() || t.isPart() || t.comps() != 1) {
            return null;
        }
        Instr def = sd.soleDef(t);
        if (def == null || def == outer || sd.uses(t).size() != 1 || !(plainResult(def) || arithmeticShiftRight(def))) {
            return null;
        }
        int reads = 0;
        for (Reg u : outer.usedRegs()) {
            if (u.sameRegister(t)) {
                reads++;
            }
        }
        if (reads != 1) {
            return null;
        }
        for (Reg r : def.usedRegs()) {
            if (r.virtual() && !sd.stable(r) && !unchangedBetween(body, r, def, outer, sd)) {
                return null;
            }
            if (!r.virtual() && !r.isZero()) {
                return null;
            }
        }
        return def;
    }

    static boolean isZero(Src s) {
        Long v = OpInfo.const32(s);
        return v != null && v == 0;
    }

    private static boolean combineAdd(FunctionBody body, Instr outer, SingleDefs sd) {
        List<Src> s = outer.srcs();
        if (s.size() != 3) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            Instr inner = innerDef(body, s.get(i), outer, sd);
            if (inner == null) {
                continue;
            }
            List<Src> others = new ArrayList<>();
            for (int j = 0; j < 3; j++) {
                if (j != i && !isZero(s.get(j))) {
                    others.add(s.get(j));
                }
            }
            Src t = s.get(i);
            if (OpInfo.is(inner, "IADD3") && inner.srcs().size() == 3 && !t.abs() && !t.not()) {
                List<Src> terms = new ArrayList<>();
                for (Src x : inner.srcs()) {
                    if (!isZero(x)) {
                        terms.add(t.neg() ? negate(x) : x);
                    }
                }
                terms.addAll(others);
                List<Src> merged = mergeTerms(terms);
                if (merged != null) {
                    outer.srcs().clear();
                    outer.srcs().addAll(merged);
                    return true;
                }
            }
            if (others.size() == 1 && !t.hasModifiers() && !others.get(0).abs() && !others.get(0).not()) {
                Src y = others.get(0);
                if (OpInfo.is(inner, "IMAD") && inner.srcs().size() == 3 && isZero(inner.srcs().get(2))
                        && List.of("U32", "SHL", "MOV").containsAll(inner.mods())) {
                    Src a = inner.srcs().get(0);
                    Src bb = inner.srcs().get(1);
                    if (OpInfo.isNonRegister(a) || OpInfo.isNonRegister(bb) && OpInfo.isNonRegister(y)) {
                        continue;
                    }
                    y = foldNeg(y);
                    if (y == null) {
                        continue;
                    }
                    rewrite(outer, "IMAD", List.of(), List.of(a, bb, y));
                    return true;
                }
                if (OpInfo.is(inner, "SHF") && inner.mods().equals(List.of("L", "U32")) && inner.srcs().size() == 3
                        && isZero(inner.srcs().get(2)) && OpInfo.imm(inner.srcs().get(1)) != null
                        && OpInfo.imm(inner.srcs().get(1)) < 32 && !OpInfo.isNonRegister(inner.srcs().get(0))
                        && !y.neg() && !(y.value() instanceof Imm)) {
                    rewrite(outer, "LEA", List.of(), List.of(inner.srcs().get(0), y, inner.srcs().get(1)));
                    return true;
                }
                // y + (x >> n) is LEA.HI.SX32 d, x, y, 32 - n: the high word of the sign-extended x << (32 - n)
                // (ptxas's one instruction for the padded shared index x + ((x - 1) >> 4)).
                Long n = arithmeticShiftRight(inner) ? OpInfo.imm(inner.srcs().get(1)) : null;
                Src x = n == null ? null : inner.srcs().get(2);
                if (n != null && n > 0 && n < 32 && x.value() instanceof Reg xr && !xr.isZero() && !x.hasModifiers()
                        && y.value() instanceof Reg yr && !yr.file().isPredicate() && !y.hasModifiers()) {
                    rewrite(outer, "LEA", List.of("HI", "SX32"), List.of(x, y, Src.of(Imm.ofInt((int) (32 - n)))));
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code IMAD.WIDE t, a, b, RZ} feeding a 64-bit add {@code d = t + y} done as the IADD3 / IADD3.X carry pair
     * becomes {@code IMAD.WIDE d, a, b, y}, with {@code y} a stable register pair or two consecutive constant-bank
     * words (ptxas's {@code IMAD.WIDE R2, R0, R3, c[0x0][0x160]}).
     */
    private static boolean combineWideAdd(Instr hi, SingleDefs sd, java.util.Set<Instr> removed, OptContext cx) {
        Instr lo = carryPairLow(hi, sd);
        if (lo == null) {
            return false;
        }
        Reg d = OpInfo.soleRDst(hi).whole();
        Src[] loTerms = twoTerms(lo.srcs().subList(0, 3));
        Src[] hiTerms = twoTerms(hi.srcs().subList(0, 3));
        if (loTerms == null || hiTerms == null) {
            return false;
        }
        for (int k = 0; k < 2; k++) {
            Src tl = loTerms[k];
            if (!(tl.value() instanceof Reg t) || !t.isPart() || t.part() != 0 || t.comps() != 2) {
                continue;
            }
            Src yl = loTerms[1 - k];
            int hk = hiTerms[0].value() instanceof Reg th && th.isPart() && th.part() == 1 && th.sameRegister(t) ? 0
                    : hiTerms[1].value() instanceof Reg th2 && th2.isPart() && th2.part() == 1 && th2.sameRegister(t) ? 1 : -1;
            if (hk < 0) {
                continue;
            }
            Src yh = hiTerms[1 - hk];
            Instr wide = sd.soleDef(t.whole());
            if (wide == null || !OpInfo.is(wide, "IMAD_WIDE") || wide.srcs().size() != 3
                    || !OpInfo.isRZ(wide.srcs().get(2)) || !List.of("U32").containsAll(wide.mods())) {
                // Other readers of t keep the multiply alive; the pair still becomes one instruction.
                continue;
            }
            Src a = wide.srcs().get(0);
            Src b = wide.srcs().get(1);
            if (!availableLater(a, sd) || !availableLater(b, sd)) {
                continue;
            }
            Src addend = pairAddend(yl, yh, sd);
            if (addend != null && addend.value() instanceof org.jptxas.ori.ir.CBank && !cx.aluReadsConstantBank()) {
                continue;
            }
            if (addend == null || OpInfo.isNonRegister(addend) && OpInfo.isNonRegister(a)) {
                continue;
            }
            hi.dsts().clear();
            hi.dsts().add(d);
            hi.setOp(OpInfo.op("IMAD_WIDE"));
            hi.setMods(wide.mods());
            hi.srcs().clear();
            hi.srcs().addAll(List.of(a, b, addend));
            removed.add(lo);
            return true;
        }
        return false;
    }

    /**
     * The {@code IADD3 d.lo, P, ...} this {@code IADD3.X d.hi, ..., P, !PT} completes to a 64-bit add of a stable
     * pair {@code d}, when the carry {@code P} is read only here; null otherwise.
     */
    static Instr carryPairLow(Instr hi, SingleDefs sd) {
        Reg dHi = OpInfo.soleRDst(hi);
        if (dHi == null || !dHi.virtual() || !dHi.isPart() || dHi.part() != 1 || dHi.comps() != 2
                || hi.srcs().size() != 5 || !hi.guard().isAlways()) {
            return null;
        }
        Reg d = dHi.whole();
        Src carry = hi.srcs().get(3);
        Boolean carry2 = OpInfo.constPred(hi.srcs().get(4));
        if (!(carry.value() instanceof Reg p) || !p.virtual() || carry.hasModifiers() || carry2 == null || carry2
                || sd.uses(p).size() != 1 || sd.soleDef(p) == null || !sd.stable(d)) {
            return null;
        }
        List<Instr> defs = sd.defs(d);
        if (defs.size() != 2) {
            return null;
        }
        Instr lo = defs.get(0) == hi ? defs.get(1) : defs.get(0);
        if (!OpInfo.is(lo, "IADD3") || !lo.mods().isEmpty() || lo.srcs().size() != 3 || lo.dsts().size() < 2
                || !lo.dsts().get(0).isPart() || lo.dsts().get(0).part() != 0 || !lo.dsts().get(1).equals(p)) {
            return null;
        }
        for (int i = 2; i < lo.dsts().size(); i++) {
            if (!lo.dsts().get(i).isZero()) {
                return null;
            }
        }
        return lo;
    }

    /**
     * The high half of a 64-bit add whose addend is a sign-extended 32-bit value ({@code cvt.s64.s32} then
     * {@code add.s64}: {@code IADD3.X d.hi, y, t.hi, RZ, P, !PT} with {@code t.hi = SHF.R.S32.HI RZ, 0x1f, x})
     * becomes {@code LEA.HI.X.SX32 d.hi, x, y, 0x1, P}, as ptxas writes it: the sign fill is read in the add and
     * its SHF goes. Of two such addends ptxas fuses the older extension by value ({@link SignFillNumbering}: the
     * value first extended earlier in the function, even in a block that does not dominate this one) and keeps the
     * other's SHF; between two values first extended here, the earlier cvt.
     */
    private static boolean combineSignFill(FunctionBody body, Instr hi, SingleDefs sd, java.util.Set<Instr> removed,
                                           OptContext cx, SignFillNumbering numbers) {
        if (hi.srcs().size() != 5 || !hi.guard().isAlways() || !Boolean.FALSE.equals(OpInfo.constPred(hi.srcs().get(4)))
                || !(hi.srcs().get(3).value() instanceof Reg carry) || !carry.file().isPredicate()
                || hi.srcs().get(3).hasModifiers()) {
            return false;
        }
        if (OpInfo.soleRDst(hi) == null) {
            return false; // a carry out is read: LEA.HI.X writes none
        }
        Src[] terms = twoTerms(hi.srcs().subList(0, 3));
        if (terms == null) {
            return false;
        }
        Instr[] fills = {signFill(body, terms[0], hi, sd), signFill(body, terms[1], hi, sd)};
        int k = fills[0] == null ? 1 : fills[1] == null || older(fills[0], fills[1], sd, numbers) ? 0 : 1;
        Instr fill = fills[k];
        Src y = terms[1 - k];
        if (fill == null || removed.contains(fill) || y.hasModifiers() || y.value().equals(fill.dsts().get(0))
                || !(y.value() instanceof Reg yr && !yr.file().isPredicate()
                    || y.value() instanceof org.jptxas.ori.ir.CBank c && c.index() == null && cx.aluReadsConstantBank())) {
            return false;
        }
        long n = OpInfo.imm(fill.srcs().get(1));
        rewrite(hi, "LEA", List.of("HI", "X", "SX32"),
                List.of(fill.srcs().get(2), y, Src.of(Imm.ofInt((int) (32 - n))), hi.srcs().get(3)));
        removed.add(fill);
        return true;
    }

    /**
     * The {@code SHF.R.S32.HI t, RZ, n, x} that is the one write of the 32-bit part {@code s} reads, when this add
     * is the only reader of that part and {@code x} holds the same value here (one value everywhere, or not written
     * again between the two in their block: a loop's counter extended after the loop).
     */
    private static Instr signFill(FunctionBody body, Src s, Instr reader, SingleDefs sd) {
        if (!(s.value() instanceof Reg t) || !t.virtual() || s.hasModifiers()) {
            return null;
        }
        Instr def = sd.soleWrite(t);
        if (def == null || !arithmeticShiftRight(def) || !sd.dominates(def, reader)) {
            return null;
        }
        Long n = OpInfo.imm(def.srcs().get(1));
        Src x = def.srcs().get(2);
        if (n == null || n < 1 || n > 31 || x.hasModifiers() || !(x.value() instanceof Reg xr) || !xr.virtual()
                || !sd.stable(xr) && !unchangedBetween(body, xr, def, reader, sd)) {
            return null;
        }
        for (Instr u : sd.uses(t)) {
            for (Reg r : u.usedRegs()) {
                if (r.sameRegister(t) && (!r.isPart() || r.equals(t)) && u != reader) {
                    return null;
                }
            }
        }
        return def;
    }

    /** Whether {@code from} and {@code to} sit in one block, in that order, with no write of {@code r} between. */
    static boolean unchangedBetween(FunctionBody body, Reg r, Instr from, Instr to, SingleDefs sd) {
        SingleDefs.Position a = sd.position(from);
        SingleDefs.Position b = sd.position(to);
        return a != null && b != null && a.block() == b.block() && a.index() < b.index()
                && Rewrites.lastWrite(body.block(a.block()).instrs(), b.index(), r) < a.index();
    }

    /** True when ptxas fuses fill {@code a} rather than {@code b}: the lower value number, else the earlier fill. */
    private static boolean older(Instr a, Instr b, SingleDefs sd, SignFillNumbering numbers) {
        int na = numbers.number(a);
        int nb = numbers.number(b);
        return na != nb ? na < nb : precedes(a, b, sd);
    }

    /** Whether {@code a} comes before {@code b} in the PTX (by line, then by place in the body). */
    private static boolean precedes(Instr a, Instr b, SingleDefs sd) {
        if (a.line() != b.line()) {
            return a.line() < b.line();
        }
        SingleDefs.Position pa = sd.position(a);
        SingleDefs.Position pb = sd.position(b);
        return pa.block() < pb.block() || pa.block() == pb.block() && pa.index() <= pb.index();
    }

    /** The two non-zero terms of an add (the third zero), or null. */
    static Src[] twoTerms(List<Src> srcs) {
        Src[] out = new Src[2];
        int n = 0;
        for (Src s : srcs) {
            if (isZero(s)) {
                continue;
            }
            if (n == 2 || s.hasModifiers()) {
                return null;
            }
            out[n++] = s;
        }
        return n == 2 ? out : null;
    }

    static boolean availableLater(Src s, SingleDefs sd) {
        if (s.value() instanceof Reg r) {
            return r.isZero() || r.virtual() && sd.stable(r);
        }
        return !s.hasModifiers() && (s.value() instanceof Imm || s.value() instanceof org.jptxas.ori.ir.CBank c
                && c.index() == null);
    }

    /** The 64-bit addend whose halves are {@code lo} and {@code hi}: a stable pair or two constant words. */
    static Src pairAddend(Src lo, Src hi, SingleDefs sd) {
        if (lo.value() instanceof Reg l && hi.value() instanceof Reg h && l.isPart() && h.isPart() && l.part() == 0
                && h.part() == 1 && l.comps() == 2 && l.sameRegister(h) && sd.stable(l.whole())) {
            return Src.of(l.whole());
        }
        if (lo.value() instanceof org.jptxas.ori.ir.CBank l && hi.value() instanceof org.jptxas.ori.ir.CBank h
                && l.index() == null && h.index() == null && l.bank() == h.bank() && h.offset() == l.offset() + 4
                && l.offset() % 8 == 0) {
            return Src.of(l);
        }
        return null;
    }

    private static Src negate(Src x) {
        if (x.value() instanceof Imm i) {
            return Src.of(Imm.ofInt((int) -i.bits()));
        }
        return x.negated();
    }

    /** An immediate with its negation folded in; other sources as they are (IMAD's addend takes a negation). */
    private static Src foldNeg(Src y) {
        if (y.value() instanceof Imm i) {
            return y.neg() ? Src.of(Imm.ofInt((int) -i.bits())) : y;
        }
        return y;
    }

    /** At most three terms with immediates summed and the one non-register term in the middle slot; or null. */
    private static List<Src> mergeTerms(List<Src> terms) {
        long constant = 0;
        boolean hasConstant = false;
        List<Src> regs = new ArrayList<>();
        Src nonReg = null;
        for (Src x : terms) {
            if (x.value() instanceof Imm) {
                constant += OpInfo.const32(x);
                hasConstant = true;
            } else if (OpInfo.isNonRegister(x)) {
                if (nonReg != null) {
                    return null;
                }
                nonReg = x;
            } else {
                regs.add(x);
            }
        }
        if (hasConstant && (constant & 0xffffffffL) != 0) {
            if (nonReg != null) {
                return null;
            }
            nonReg = Src.of(Imm.ofInt((int) constant));
        }
        if (regs.size() + (nonReg == null ? 0 : 1) > 3) {
            return null;
        }
        while (regs.size() < 2) {
            regs.add(Src.of(Reg.RZ));
        }
        if (nonReg == null) {
            if (regs.size() == 2) {
                regs.add(Src.of(Reg.RZ));
            }
            return regs;
        }
        return List.of(regs.get(0), nonReg, regs.get(1));
    }

    private static boolean combineLogic(FunctionBody body, Instr outer, SingleDefs sd) {
        List<Src> s = outer.srcs();
        if (s.size() != 5 || OpInfo.imm(s.get(3)) == null || !outer.mods().equals(List.of("LUT"))) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            Instr inner = innerDef(body, s.get(i), outer, sd);
            if (inner == null || !OpInfo.is(inner, "LOP3") || inner.srcs().size() != 5
                    || OpInfo.imm(inner.srcs().get(3)) == null || !inner.mods().equals(List.of("LUT"))
                    || s.get(i).neg() || s.get(i).abs()) {
                continue;
            }
            List<Src> vars = new ArrayList<>();
            int[] innerVec = new int[3];
            for (int k = 0; k < 3; k++) {
                innerVec[k] = vector(inner.srcs().get(k), vars);
            }
            int[] outerVec = new int[3];
            for (int k = 0; k < 3; k++) {
                if (k != i) {
                    outerVec[k] = vector(s.get(k), vars);
                }
            }
            if (vars.size() > 3 || innerVec[0] < 0 || innerVec[1] < 0 || innerVec[2] < 0
                    || outerVec[(i + 1) % 3] < 0 || outerVec[(i + 2) % 3] < 0) {
                continue;
            }
            // Variables go to slots in order, the one non-register variable (if any) to the middle slot.
            List<Src> slots = arrange(vars);
            if (slots == null) {
                continue;
            }
            int[] slotVec = new int[vars.size()];
            for (int v = 0; v < vars.size(); v++) {
                slotVec[v] = Lut.input(slots.indexOf(vars.get(v)));
            }
            int innerLut = (int) (long) OpInfo.imm(inner.srcs().get(3));
            int outerLut = (int) (long) OpInfo.imm(s.get(3));
            int[] in3 = new int[3];
            for (int k = 0; k < 3; k++) {
                in3[k] = resolve(innerVec[k], slotVec);
            }
            int tVec = Lut.apply(innerLut, in3[0], in3[1], in3[2]);
            if (s.get(i).not()) {
                tVec = ~tVec & 0xff;
            }
            int[] out3 = new int[3];
            for (int k = 0; k < 3; k++) {
                out3[k] = k == i ? tVec : resolve(outerVec[k], slotVec);
            }
            int lut = Lut.apply(outerLut, out3[0], out3[1], out3[2]);
            List<Src> newSrcs = new ArrayList<>(slots);
            newSrcs.add(Src.of(Imm.ofInt(lut)));
            newSrcs.add(s.get(4));
            rewrite(outer, "LOP3", List.of("LUT"), newSrcs);
            return true;
        }
        return false;
    }

    // Truth-vector codes: 0x100 | v for a constant vector v, else the index of a variable, or 0x200 | index for
    // an inverted variable; -1 when the source cannot take part.
    private static int vector(Src x, List<Src> vars) {
        if (x.neg() || x.abs()) {
            return -1;
        }
        Long c = OpInfo.const32(x);
        if (c != null && (c == 0 || c == 0xffffffffL)) {
            return 0x100 | (c == 0 ? 0 : 0xff);
        }
        Src plain = new Src(x.value(), false, false, false);
        int idx = vars.indexOf(plain);
        if (idx < 0) {
            vars.add(plain);
            idx = vars.size() - 1;
        }
        return x.not() ? 0x200 | idx : idx;
    }

    private static int resolve(int code, int[] slotVec) {
        if ((code & 0x100) != 0) {
            return code & 0xff;
        }
        if ((code & 0x200) != 0) {
            return ~slotVec[code & 0xff] & 0xff;
        }
        return slotVec[code];
    }

    private static List<Src> arrange(List<Src> vars) {
        List<Src> regs = new ArrayList<>();
        Src nonReg = null;
        for (Src v : vars) {
            if (OpInfo.isNonRegister(v)) {
                if (nonReg != null) {
                    return null;
                }
                nonReg = v;
            } else {
                regs.add(v);
            }
        }
        List<Src> out = new ArrayList<>();
        out.add(regs.size() > 0 ? regs.get(0) : Src.of(Reg.RZ));
        out.add(nonReg != null ? nonReg : regs.size() > 1 ? regs.get(1) : Src.of(Reg.RZ));
        int third = nonReg != null ? 1 : 2;
        out.add(regs.size() > third ? regs.get(third) : Src.of(Reg.RZ));
        if (regs.size() > third + 1) {
            return null;
        }
        return out;
    }

    /** Makes {@code in} {@code op.mods srcs} writing only its one general-register destination. */
    static void rewrite(Instr in, String op, List<String> mods, List<Src> srcs) {
        Reg d = OpInfo.soleRDst(in);
        in.dsts().clear();
        in.dsts().add(d);
        in.setOp(OpInfo.op(op));
        in.setMods(mods);
        in.srcs().clear();
        in.srcs().addAll(srcs);
    }
}
