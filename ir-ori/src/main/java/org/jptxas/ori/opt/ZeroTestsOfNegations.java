package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * A value compared with zero for equality need not have its sign fixed first: {@code -r} is zero exactly where
 * {@code r} is (two's complement: only 0 negates to 0). The signed remainder's lowering ends
 * {@code MOV v, r; @!p IADD3 v, -r, RZ, RZ} (the remainder takes the dividend's sign), and PTX's
 * {@code setp.ne.s32 q, v, 0} then reads v; the compare reads r instead, as ptxas 13 writes rodinia's backprop
 * ({@code x % 2^k != 0}), and the MOV, the negation and the sign test behind p are left to dead-code elimination.
 * The MOV and the negation must be the last two writes of v before the compare in its block, and r not written
 * between the MOV and the compare.
 */
public final class ZeroTestsOfNegations implements Pass {
    @Override
    public String name() {
        return "zero-tests";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int j = 0; j < instrs.size(); j++) {
                Instr compare = instrs.get(j);
                int slot = zeroTestSlot(compare);
                if (slot < 0) {
                    continue;
                }
                Reg v = (Reg) compare.srcs().get(slot).value();
                int negation = Rewrites.lastWrite(instrs, j, v);
                Reg r = negation < 0 ? null : negatedSource(instrs.get(negation), v);
                int copy = r == null ? -1 : Rewrites.lastWrite(instrs, negation, v);
                if (copy < 0 || !isCopy(instrs.get(copy), v, r) || Rewrites.lastWrite(instrs, j, r) > copy) {
                    continue;
                }
                compare.srcs().set(slot, Src.of(r));
                changed = true;
            }
        }
        return changed;
    }

    /** For {@code ISETP.{EQ,NE}[.U32].AND p, PT, v, 0, PT} (or 0 first): the slot of the virtual v; else -1. */
    private static int zeroTestSlot(Instr in) {
        if (!OpInfo.is(in, "ISETP") || in.srcs().size() != 3 || in.mods().contains("EX") || in.mods().isEmpty()
                || !List.of("EQ", "NE").contains(in.mods().get(0))
                || !in.mods().get(in.mods().size() - 1).equals("AND")) {
            return -1;
        }
        for (int k = 0; k < 2; k++) {
            Src s = in.srcs().get(k);
            Long other = OpInfo.const32(in.srcs().get(1 - k));
            if (other != null && other == 0 && !s.hasModifiers() && s.value() instanceof Reg v
                    && OpInfo.isPlainVirtualR(v) && !v.isPart()) {
                return k;
            }
        }
        return -1;
    }

    /** For {@code [@g] IADD3 v, -r, 0, 0} (the zeros in any slots, no carry): r, a plain register; else null. */
    private static Reg negatedSource(Instr in, Reg v) {
        if (!OpInfo.is(in, "IADD3") || !in.mods().isEmpty() || in.srcs().size() != 3 || !v.equals(OpInfo.soleRDst(in))) {
            return null;
        }
        Reg r = null;
        for (Src s : in.srcs()) {
            Long c = OpInfo.const32(s);
            if (c != null && c == 0) {
                continue;
            }
            if (r != null || !s.neg() || s.abs() || s.not() || !(s.value() instanceof Reg x) || !OpInfo.isPlainVirtualR(x)
                    || x.isPart()) {
                return null;
            }
            r = x;
        }
        return r;
    }

    /** An unguarded {@code MOV v, r}. */
    private static boolean isCopy(Instr in, Reg v, Reg r) {
        Src src = OpInfo.is(in, "MOV") ? OpInfo.movSource(in) : null;
        return in.guard().isAlways() && v.equals(OpInfo.soleRDst(in)) && src != null && !src.hasModifiers()
                && src.value() instanceof Reg x && x.equals(r);
    }
}
