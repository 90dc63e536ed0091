package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Divergence;
import org.jptxas.ori.analysis.PostDominators;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Warp-uniform operands of the loops that serve uniform-register instructions (SYNCS.EXCH, UBLKCP, UTMALDG, ...;
 * the front end builds one trip per distinct operand tuple: ELECT a pending lane, SHFL.IDX its values, R2UR them,
 * retire the lanes whose values match). An operand the divergence analysis proves equal in every lane (kernel
 * parameters, constants, {@code %ctaid}, arithmetic on them, loop counters with uniform bounds) needs neither the
 * shuffle nor the comparison: {@code R2UR} reads it directly, as ptxas reads such values from uniform registers.
 * When no operand of a loop that serves equal tuples together is left varying, its single trip is all there is and
 * the loop itself (ELECT, VOTE, back branch) goes.
 */
public final class UniformWaterfall implements Pass {
    @Override
    public String name() {
        return "uniform-waterfall";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (!cx.hasUniformDatapath() || !hasElect(body)) {
            return false;
        }
        Divergence div = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> ins = b.instrs();
            for (int i = 0; i < ins.size(); i++) {
                Instr shfl = ins.get(i);
                if (!isLeaderShuffle(shfl, ins, i)) {
                    continue;
                }
                if (div == null) {
                    Cfg cfg = Cfg.of(body);
                    div = new Divergence(body, cfg, new PostDominators(cfg));
                }
                Reg v = (Reg) shfl.srcs().get(0).value();
                if (div.isDivergent(v)) {
                    continue;
                }
                Reg led = shfl.dsts().get(1);
                OpInfo.makeMov(shfl, led, Src.of(v));
                dropMatch(body, ins, i, v, led);
                if (i > 0 && OpInfo.is(ins.get(i - 1), "WARPSYNC") && ins.get(i - 1).guard().isAlways()) {
                    ins.remove(i - 1); // it made the shuffle's lanes converge; a move needs none
                    i--;
                }
                changed = true;
            }
            changed |= collapseSingleTrip(body, b);
        }
        return changed;
    }

    private static boolean hasElect(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (OpInfo.is(in, "ELECT")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code SHFL.IDX PT, led, v, lane, 0x1f} with {@code lane} moved from an ELECT's uniform result earlier in the
     * same block: the source lane is an active one, so a value equal in all lanes comes back unchanged.
     */
    private static boolean isLeaderShuffle(Instr shfl, List<Instr> ins, int at) {
        if (!OpInfo.is(shfl, "SHFL") || !shfl.mods().equals(List.of("IDX")) || !shfl.guard().isAlways()
                || shfl.dsts().size() != 2 || shfl.srcs().size() != 3
                || !(shfl.srcs().get(0).value() instanceof Reg v) || v.isZero() || shfl.srcs().get(0).hasModifiers()
                || !(shfl.srcs().get(1).value() instanceof Reg lane) || !Long.valueOf(0x1f).equals(
                        OpInfo.imm(shfl.srcs().get(2)))) {
            return false;
        }
        for (int j = at - 1; j >= 0; j--) {
            Instr d = ins.get(j);
            if (Rewrites.writes(d, lane)) {
                Src from = OpInfo.movSource(d);
                if (from == null || !d.guard().isAlways() || !(from.value() instanceof Reg ur)) {
                    return false;
                }
                for (int k = j - 1; k >= 0; k--) {
                    Instr e = ins.get(k);
                    if (Rewrites.writes(e, ur)) {
                        return OpInfo.is(e, "ELECT") && e.guard().isAlways();
                    }
                }
                return false;
            }
        }
        return false;
    }

    /** {@code ISETP.EQ.U32.AND same, PT, v, led, match} after the shuffle is {@code match}: its readers read that. */
    private static void dropMatch(FunctionBody body, List<Instr> ins, int from, Reg v, Reg led) {
        for (int j = from + 1; j < ins.size(); j++) {
            Instr c = ins.get(j);
            if (OpInfo.is(c, "ISETP") && c.mods().equals(List.of("EQ", "U32", "AND")) && c.guard().isAlways()
                    && c.srcs().size() == 3 && c.dsts().size() == 2 && c.dsts().get(1).equals(Reg.PT)
                    && isReg(c.srcs().get(0), v) && isReg(c.srcs().get(1), led)
                    && c.srcs().get(2).value() instanceof Reg match && !c.srcs().get(2).hasModifiers()) {
                Reg same = c.dsts().get(0);
                if (!same.virtual()) {
                    return;
                }
                ins.remove(j);
                for (BasicBlock b : body.blocks()) {
                    for (Instr in : b.instrs()) {
                        Rewrites.replaceUses(in, same, match);
                    }
                }
                return;
            }
            if (Rewrites.writes(c, v) || Rewrites.writes(c, led)) {
                return;
            }
        }
    }

    private static boolean isReg(Src s, Reg r) {
        return s.value() instanceof Reg x && !s.hasModifiers() && x.sameRegister(r) && x.isPart() == r.isPart()
                && (!x.isPart() || x.part() == r.part());
    }

    /**
     * A loop block {@code WARPSYNC here; ELECT e, leader, pending; MOV lane, leader; ...; PLOP3.LUT pending, PT,
     * pending, pending, PT, 0x30, 0x0; WARPSYNC here; VOTE.ANY x, any, pending; @any BRA loop} retires every lane on
     * its first trip (pending and not pending): it runs once, so only its body stays, and the set-up before it
     * ({@code VOTE.ANY here}, {@code PLOP3 pending = PT}) goes once nothing reads it.
     */
    private static boolean collapseSingleTrip(FunctionBody body, BasicBlock b) {
        List<Instr> ins = b.instrs();
        int n = ins.size();
        if (n < 7) {
            return false;
        }
        Instr bra = ins.get(n - 1);
        Instr vote = ins.get(n - 2);
        Instr sync = ins.get(n - 3);
        Instr retire = ins.get(n - 4);
        if (!OpInfo.is(bra, "BRA") || bra.guard().isAlways() || bra.guard().negated() || bra.srcs().size() != 1
                || !(bra.srcs().get(0).value() instanceof BlockLabel target) || target.block() != b.id()) {
            return false;
        }
        if (!OpInfo.is(vote, "VOTE") || !vote.mods().equals(List.of("ANY")) || vote.dsts().size() != 2
                || !vote.dsts().get(1).sameRegister(bra.guard().predicate()) || vote.srcs().size() != 1
                || !(vote.srcs().get(0).value() instanceof Reg pending) || vote.srcs().get(0).hasModifiers()) {
            return false;
        }
        if (!OpInfo.is(sync, "WARPSYNC") || !OpInfo.is(retire, "PLOP3") || retire.srcs().size() != 5
                || !Long.valueOf(0x30).equals(OpInfo.imm(retire.srcs().get(3)))
                || !isReg(retire.srcs().get(0), pending) || !isReg(retire.srcs().get(1), pending)
                || !retire.dsts().get(0).sameRegister(pending)) {
            return false;
        }
        Instr first = ins.get(0);
        Instr elect = ins.get(1);
        Instr laneMov = ins.get(2);
        Src leader = OpInfo.movSource(laneMov);
        if (!OpInfo.is(first, "WARPSYNC") || !OpInfo.is(elect, "ELECT") || elect.dsts().size() != 2
                || elect.srcs().size() != 1 || !isReg(elect.srcs().get(0), pending) || leader == null
                || !(leader.value() instanceof Reg l) || !l.sameRegister(elect.dsts().get(1))
                || !(first.srcs().get(0).value() instanceof Reg here) || !here.virtual() || !pending.virtual()) {
            return false;
        }
        List<Instr> loopOnly = List.of(first, elect, laneMov, retire, sync, vote, bra);
        Reg lane = laneMov.dsts().get(0);
        Reg elected = elect.dsts().get(0);
        if (readOutside(body, lane, loopOnly) || !elected.equals(Reg.PT) && readOutside(body, elected, loopOnly)
                || readOutside(body, vote.dsts().get(0), loopOnly)
                || readOutside(body, vote.dsts().get(1), loopOnly)
                || readOutside(body, pending, loopOnly) || readOutside(body, here, loopOnly)) {
            return false;
        }
        ins.removeIf(in -> containsIdentity(loopOnly, in));
        // the set-up: the only writers of here and pending left
        for (BasicBlock bb : body.blocks()) {
            bb.instrs().removeIf(in -> in.guard().isAlways()
                    && (OpInfo.is(in, "VOTE") && in.dsts().size() == 2 && in.dsts().get(0).sameRegister(here)
                            && in.dsts().get(1).equals(Reg.PT)
                    || OpInfo.is(in, "PLOP3") && in.dsts().size() == 2 && in.dsts().get(0).sameRegister(pending)
                            && in.dsts().get(1).equals(Reg.PT)));
        }
        return true;
    }

    /** Whether any instruction other than {@code except} reads {@code r}. */
    private static boolean readOutside(FunctionBody body, Reg r, List<Instr> except) {
        if (r.isZero() || r.equals(Reg.PT)) {
            return false;
        }
        for (BasicBlock bb : body.blocks()) {
            for (Instr in : bb.instrs()) {
                if (!containsIdentity(except, in) && Rewrites.reads(in, r)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean containsIdentity(List<Instr> list, Instr in) {
        for (Instr x : list) {
            if (x == in) {
                return true;
            }
        }
        return false;
    }
}
