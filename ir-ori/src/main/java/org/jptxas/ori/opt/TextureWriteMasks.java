package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.DefUseVisitor;
import org.jptxas.ori.ir.DefUseWalk;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * A texture read ({@code TEX}, {@code TLD}, the gather {@code TLD4}) returns only the channels the function reads, as ptxas writes it: the
 * lowering asks for all four (Rd2 = z, w and Rd = x, y), this pass gives the instruction a write mask of the
 * channels something reads (an immediate after the geometry; nvdisasm prints it when it is not 0xf), and packs
 * them as the hardware returns them: the first two enabled channels into Rd, the rest into Rd2 (RZ when there are
 * at most two). A read whose channels nothing reads at all is removed (a texture read has no other effect; ptxas
 * drops it too). Fewer registers written means fewer live and a shorter wait on the reply.
 *
 * <p>An instruction is left as it is when its destinations are not the two fresh virtual pairs the lowering makes,
 * when anything else writes them, or when a reader takes a whole pair whose channels would no longer be adjacent.
 *
 * <p>One def-use walk of the body finds, for every texture read at once, who else writes its pairs and which
 * instructions read which of their channels; the reads are then narrowed in body order from those lists (a read
 * removed earlier no longer counts as a reader of the later ones).
 */
public final class TextureWriteMasks implements Pass {
    @Override
    public String name() {
        return "texture-write-masks";
    }

    /** One read of a texture result: the reader and the reference (a part or the whole pair). */
    private record Read(Instr reader, Reg reg) {}

    /** A texture read the pass may narrow, with what the walk found about its two destination pairs. */
    private static final class Candidate {
        final Instr in;
        final Reg zw;
        final Reg xy;
        boolean writtenElsewhere;
        final List<Read> zwReads = new ArrayList<>();
        final List<Read> xyReads = new ArrayList<>();

        Candidate(Instr in) {
            this.in = in;
            this.zw = in.dsts().get(0);
            this.xy = in.dsts().get(1);
        }
    }

    /** Records, per candidate pair (indexed by virtual register number), its other writers and its readers. */
    private static final class Walker implements DefUseVisitor {
        final Candidate[] owner;

        Walker(Candidate[] owner) {
            this.owner = owner;
        }

        private Candidate ownerOf(Reg r) {
            return r.virtual() && r.file() == RegFile.R && r.index() < owner.length ? owner[r.index()] : null;
        }

        @Override
        public void def(Instr in, Reg r) {
            Candidate c = ownerOf(r);
            if (c != null && in != c.in) {
                c.writtenElsewhere = true;
            }
        }

        @Override
        public void use(Instr in, Reg r) {
            Candidate c = ownerOf(r);
            if (c != null) {
                (r.index() == c.zw.index() ? c.zwReads : c.xyReads).add(new Read(in, r));
            }
        }
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        List<Candidate> candidates = new ArrayList<>();
        Candidate[] owner = new Candidate[body.virtualCount(RegFile.R)];
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                int geometry = geometryIndex(in);
                if (geometry < 0 || geometry != in.srcs().size() - 1 || in.dsts().size() != 2) {
                    continue;
                }
                Reg zw = in.dsts().get(0);
                Reg xy = in.dsts().get(1);
                if (!isFreshPair(zw) || !isFreshPair(xy) || zw.sameRegister(xy)) {
                    continue;
                }
                Candidate c = new Candidate(in);
                for (Reg d : List.of(zw, xy)) {
                    if (owner[d.index()] != null) {
                        // another texture read writes it too: neither is narrowed
                        owner[d.index()].writtenElsewhere = true;
                        c.writtenElsewhere = true;
                    } else {
                        owner[d.index()] = c;
                    }
                }
                candidates.add(c);
            }
        }
        if (candidates.isEmpty()) {
            return false;
        }
        DefUseWalk.walk(body, new Walker(owner));
        Set<Instr> removed = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean changed = false;
        for (Candidate c : candidates) {
            if (c.writtenElsewhere) {
                continue;
            }
            int mask = channelsRead(c.zwReads, 2, removed) | channelsRead(c.xyReads, 0, removed);
            if (mask == 0xf) {
                continue;
            }
            if (mask == 0) {
                removed.add(c.in);
                changed = true;
                continue;
            }
            changed |= narrow(body, cx, c, mask, removed);
        }
        if (!removed.isEmpty()) {
            for (BasicBlock b : blocks) {
                b.instrs().removeIf(removed::contains);
            }
        }
        return changed;
    }

    /** Rewrites the candidate and its readers for {@code mask}; false when a reader or the backend stands in the way. */
    private static boolean narrow(FunctionBody body, OptContext cx, Candidate c, int mask, Set<Instr> removed) {
        int n = Integer.bitCount(mask);
        Reg rd = body.newVirtual(RegFile.R, Math.min(2, n));
        Reg rd2 = n > 2 ? body.newVirtual(RegFile.R, n - 2) : Reg.RZ;
        // where each enabled channel lands: channel c -> the slot-th enabled one
        Reg[] to = new Reg[4];
        int slot = 0;
        for (int ch = 0; ch < 4; ch++) {
            if ((mask >>> ch & 1) != 0) {
                to[ch] = slot < 2 ? rd.component(slot) : rd2.component(slot - 2);
                slot++;
            }
        }
        if (!wholeReadsStayAdjacent(c.zwReads, to[2], to[3], removed)
                || !wholeReadsStayAdjacent(c.xyReads, to[0], to[1], removed)) {
            return false;
        }
        Instr in = c.in;
        List<Src> srcs = new ArrayList<>(in.srcs());
        srcs.add(Src.of(Imm.ofInt(mask)));
        Instr candidate = new Instr(in.op(), in.mods(), List.of(rd2, rd), srcs, in.guard(), in.line());
        if (!cx.canEncode(candidate).orElse(false)) {
            return false;
        }
        ChannelMove move = new ChannelMove(c.zw, c.xy, to);
        redirect(c.zwReads, in, move, removed);
        redirect(c.xyReads, in, move, removed);
        in.dsts().set(0, rd2);
        in.dsts().set(1, rd);
        in.srcs().add(Src.of(Imm.ofInt(mask)));
        return true;
    }

    /** The position of the geometry operand of a TEX, TLD or TLD4, or -1. */
    private static int geometryIndex(Instr in) {
        if (!OpInfo.is(in, "TEX") && !OpInfo.is(in, "TLD") && !OpInfo.is(in, "TLD4")) {
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

    /** The channels (channel {@code first} and the next) that the reads of one pair take. */
    private static int channelsRead(List<Read> reads, int first, Set<Instr> removed) {
        int mask = 0;
        for (int i = 0; i < reads.size(); i++) {
            Read r = reads.get(i);
            if (!removed.contains(r.reader())) {
                mask |= r.reg().isPart() ? 1 << (first + r.reg().part()) : 3 << first;
            }
        }
        return mask;
    }

    /** Whether every read of a whole pair can read one new pair: its channels land in order in one. */
    private static boolean wholeReadsStayAdjacent(List<Read> reads, Reg lo, Reg hi, Set<Instr> removed) {
        boolean adjacent = lo != null && hi != null && lo.isPart() && hi.isPart() && lo.sameRegister(hi)
                && lo.comps() == 2 && lo.part() == 0 && hi.part() == 1;
        if (adjacent) {
            return true;
        }
        for (int i = 0; i < reads.size(); i++) {
            Read r = reads.get(i);
            if (!r.reg().isPart() && !removed.contains(r.reader())) {
                return false;
            }
        }
        return true;
    }

    /** Makes each reader (but the texture read itself) read where the channels moved; a reader of both pairs once. */
    private static void redirect(List<Read> reads, Instr self, ChannelMove move, Set<Instr> removed) {
        Instr last = null;
        for (int i = 0; i < reads.size(); i++) {
            Instr reader = reads.get(i).reader();
            if (reader != self && reader != last && !removed.contains(reader)) {
                Rewrites.renameUses(reader, move);
                last = reader;
            }
        }
    }

    /** Part 0/1 of {@code zw} and {@code xy} to where channels 2/3 and 0/1 land; a whole pair to its new pair. */
    private record ChannelMove(Reg zw, Reg xy, Reg[] to) implements Rewrites.Renaming {
        @Override
        public Reg renamed(Reg r) {
            int first = r.sameRegister(zw) ? 2 : r.sameRegister(xy) ? 0 : -1;
            if (first < 0) {
                return null;
            }
            Reg lo = to[first];
            return !r.isPart() ? lo.whole() : r.part() == 0 ? lo : to[first + 1];
        }
    }
}
