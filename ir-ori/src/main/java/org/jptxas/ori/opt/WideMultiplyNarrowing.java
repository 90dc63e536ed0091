package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * An {@code IMAD.WIDE d, a, b, c} whose high word nothing reads becomes the 32-bit {@code IMAD d', a, b, c.lo}: the
 * low word of a 64-bit multiply-add is the 32-bit one of the low words, signed or not. Shared-memory addresses are
 * the usual case: PTX forms them in 64 bits ({@code mul.wide} of the index onto {@code mov.u64 %rd, var}) while
 * {@code LDS}/{@code STS} read only the low word, and ptxas computes them in 32 bits. The narrowed result is a fresh
 * one-word register (no pair held for a dead half), and an addend whose low word is a {@code MOV} of zero reads RZ,
 * so the 64-bit base's moves die too.
 */
public final class WideMultiplyNarrowing implements Pass {
    @Override
    public String name() {
        return "wide-multiply-narrowing";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!OpInfo.is(in, "IMAD_WIDE") || !List.of("U32").containsAll(in.mods()) || in.dsts().size() != 1
                        || in.srcs().size() != 3 || !in.guard().isAlways()) {
                    continue;
                }
                Reg d = in.dsts().get(0);
                if (!d.virtual() || d.isPart() || d.comps() != 2 || d.file() != RegFile.R || sd.soleDef(d) != in
                        || !onlyLowWordRead(d, sd)) {
                    continue;
                }
                Src c = lowWord(in.srcs().get(2), sd);
                if (c == null) {
                    continue;
                }
                Reg n = body.newVirtual(RegFile.R, 1);
                for (Instr use : sd.uses(d)) {
                    Rewrites.replaceUses(use, d, n);
                }
                in.setOp(OpInfo.op("IMAD"));
                in.dsts().set(0, n);
                in.srcs().set(2, c);
                // by a power of two onto zero: IMAD.SHL.U32, as ptxas writes a shift (and the front end a mul.lo)
                Long m = OpInfo.imm(in.srcs().get(1));
                boolean shift = m != null && Long.bitCount(m & 0xffffffffL) == 1 && OpInfo.isRZ(c);
                in.setMods(shift ? List.of("SHL", "U32") : List.of());
                changed = true;
            }
        }
        return changed;
    }

    /** Whether every read of the pair {@code d} is of its low word alone. */
    static boolean onlyLowWordRead(Reg d, SingleDefs sd) {
        for (Instr use : sd.uses(d)) {
            for (Reg u : use.usedRegs()) {
                if (u.sameRegister(d) && (!u.isPart() || u.part() != 0)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The low word of the 64-bit addend {@code s} as a 32-bit source, RZ when it is a stable zero; null if unknown. */
    private static Src lowWord(Src s, SingleDefs sd) {
        if (s.value() instanceof CBank k && k.index() == null) {
            return s; // c[b][o] of a pair is the words at o and o + 4: the low one is c[b][o]
        }
        if (!(s.value() instanceof Reg r) || r.file() != RegFile.R) {
            return null;
        }
        if (r.isZero()) {
            return s;
        }
        if (!r.virtual() || r.isPart() || r.comps() != 2) {
            return null;
        }
        Reg lo = r.component(0);
        Instr def = sd.soleDef(r);
        if (def == null) {
            // two defining moves (one per word): a zero low word still reads as RZ when its move is the only one
            for (Instr w : sd.defs(r)) {
                if (w.dsts().size() == 1 && w.dsts().get(0).equals(lo)) {
                    def = sd.defs(r).size() == 2 && w.guard().isAlways() && dominatesUses(w, r, sd) ? w : null;
                }
            }
        }
        if (def != null && OpInfo.is(def, "MOV") && def.dsts().size() == 1 && def.dsts().get(0).equals(lo)
                && def.srcs().size() == 1 && OpInfo.isRZ(def.srcs().get(0)) && !def.srcs().get(0).hasModifiers()) {
            return Src.of(Reg.RZ);
        }
        return new Src(lo, s.neg(), s.abs(), s.not());
    }

    private static boolean dominatesUses(Instr def, Reg r, SingleDefs sd) {
        for (Instr use : sd.uses(r)) {
            if (!sd.dominates(def, use)) {
                return false;
            }
        }
        return sd.defs(r).stream().filter(w -> w != def).allMatch(w -> w.dsts().size() == 1
                && w.dsts().get(0).equals(r.component(1)));
    }
}
