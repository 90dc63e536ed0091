package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * A texture read ({@code TEX}, {@code TLD}) returns only the channels the function reads, as ptxas writes it: the
 * lowering asks for all four (Rd2 = z, w and Rd = x, y), this pass gives the instruction a write mask of the
 * channels something reads (an immediate after the geometry; nvdisasm prints it when it is not 0xf), and packs
 * them as the hardware returns them: the first two enabled channels into Rd, the rest into Rd2 (RZ when there are
 * at most two). A read whose channels nothing reads at all is removed (a texture read has no other effect; ptxas
 * drops it too). Fewer registers written means fewer live and a shorter wait on the reply.
 *
 * <p>An instruction is left as it is when its destinations are not the two fresh virtual pairs the lowering makes,
 * when anything else writes them, or when a reader takes a whole pair whose channels would no longer be adjacent.
 */
public final class TextureWriteMasks implements Pass {
    @Override
    public String name() {
        return "texture-write-masks";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Iterator<Instr> it = b.instrs().iterator(); it.hasNext(); ) {
                Instr in = it.next();
                int geometry = geometryIndex(in);
                if (geometry < 0 || geometry != in.srcs().size() - 1 || in.dsts().size() != 2) {
                    continue;
                }
                Reg zw = in.dsts().get(0);
                Reg xy = in.dsts().get(1);
                if (!isFreshPair(zw) || !isFreshPair(xy) || writtenElsewhere(body, in, zw, xy)) {
                    continue;
                }
                int mask = channelsRead(body, zw, 2) | channelsRead(body, xy, 0);
                if (mask == 0xf) {
                    continue;
                }
                if (mask == 0) {
                    it.remove();
                    changed = true;
                    continue;
                }
                changed |= narrow(body, cx, in, mask);
            }
        }
        return changed;
    }

    /** Rewrites {@code in} and its readers for {@code mask}; false when a reader or the backend stands in the way. */
    private static boolean narrow(FunctionBody body, OptContext cx, Instr in, int mask) {
        Reg zw = in.dsts().get(0);
        Reg xy = in.dsts().get(1);
        int n = Integer.bitCount(mask);
        Reg rd = body.newVirtual(RegFile.R, Math.min(2, n));
        Reg rd2 = n > 2 ? body.newVirtual(RegFile.R, n - 2) : Reg.RZ;
        // where each enabled channel lands: channel c -> the slot-th enabled one
        Reg[] to = new Reg[4];
        int slot = 0;
        for (int c = 0; c < 4; c++) {
            if ((mask >>> c & 1) != 0) {
                to[c] = slot < 2 ? rd.component(slot) : rd2.component(slot - 2);
                slot++;
            }
        }
        if (!wholeReadsStayAdjacent(body, zw, to[2], to[3]) || !wholeReadsStayAdjacent(body, xy, to[0], to[1])) {
            return false;
        }
        List<Src> srcs = new ArrayList<>(in.srcs());
        srcs.add(Src.of(Imm.ofInt(mask)));
        Instr candidate = new Instr(in.op(), in.mods(), List.of(rd2, rd), srcs, in.guard(), in.line());
        if (!cx.canEncode(candidate).orElse(false)) {
            return false;
        }
        for (BasicBlock b : body.blocks()) {
            for (Instr reader : b.instrs()) {
                if (reader != in) {
                    redirect(reader, zw, to[2], to[3]);
                    redirect(reader, xy, to[0], to[1]);
                }
            }
        }
        in.dsts().set(0, rd2);
        in.dsts().set(1, rd);
        in.srcs().add(Src.of(Imm.ofInt(mask)));
        return true;
    }

    /** The position of the geometry operand of a TEX or TLD, or -1. */
    private static int geometryIndex(Instr in) {
        if (!OpInfo.is(in, "TEX") && !OpInfo.is(in, "TLD")) {
            return -1;
        }
        for (int i = 0; i < in.srcs().size(); i++) {
            if (in.srcs().get(i).value() instanceof SpecialReg sr && SpecialReg.isGeometry(sr.name())) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isFreshPair(Reg r) {
        return r.virtual() && r.file() == RegFile.R && r.comps() == 2 && !r.isPart();
    }

    private static boolean writtenElsewhere(FunctionBody body, Instr in, Reg zw, Reg xy) {
        for (BasicBlock b : body.blocks()) {
            for (Instr other : b.instrs()) {
                if (other != in && (Rewrites.writes(other, zw) || Rewrites.writes(other, xy))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The channels of {@code pair} (channel {@code first} and the next) that any instruction reads. */
    private static int channelsRead(FunctionBody body, Reg pair, int first) {
        int mask = 0;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg u : in.usedRegs()) {
                    if (u.sameRegister(pair)) {
                        mask |= u.isPart() ? 1 << (first + u.part()) : 3 << first;
                    }
                }
            }
        }
        return mask;
    }

    /** Whether every read of the whole {@code pair} can read one new pair: its channels land in order in one. */
    private static boolean wholeReadsStayAdjacent(FunctionBody body, Reg pair, Reg lo, Reg hi) {
        boolean adjacent = lo != null && hi != null && lo.isPart() && hi.isPart() && lo.sameRegister(hi)
                && lo.comps() == 2 && lo.part() == 0 && hi.part() == 1;
        if (adjacent) {
            return true;
        }
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg u : in.usedRegs()) {
                    if (u.sameRegister(pair) && !u.isPart()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Makes {@code in} read {@code lo}/{@code hi} where it read part 0/1 of {@code pair}, the new pair for all of it. */
    private static void redirect(Instr in, Reg pair, Reg lo, Reg hi) {
        if (!Rewrites.reads(in, pair)) {
            return;
        }
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            Operand v = s.value();
            Operand w = v;
            if (v instanceof Reg r) {
                w = moved(r, pair, lo, hi);
            } else if (v instanceof CBank c && c.index() != null) {
                w = new CBank(c.bank(), c.offset(), moved(c.index(), pair, lo, hi));
            } else if (v instanceof Addr a) {
                w = new Addr(moved(a.base(), pair, lo, hi),
                        a.uniformBase() == null ? null : moved(a.uniformBase(), pair, lo, hi), a.offset());
            }
            if (!w.equals(v)) {
                srcs.set(i, new Src(w, s.neg(), s.abs(), s.not()));
            }
        }
    }

    private static Reg moved(Reg r, Reg pair, Reg lo, Reg hi) {
        if (!r.sameRegister(pair)) {
            return r;
        }
        return !r.isPart() ? lo.whole() : r.part() == 0 ? lo : hi;
    }
}
