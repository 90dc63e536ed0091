package org.jptxas.ori.opt;

import java.util.List;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Liveness;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeGroup;

/**
 * Predication of short branches (if-conversion). A triangle {@code A: @P BRA C; B: ...; C:} becomes B's
 * instructions guarded by {@code @!P}, also where B ends in a return or exit ({@code @!P ST; @!P RET}); a diamond {@code A: @P BRA C; B: ...; BRA D; C: ...; D:} becomes B guarded
 * by {@code @!P} and C by {@code @P}. Only when each side has at most {@link #MAX_SIDE} instructions, none already
 * guarded, none a control, barrier or warp-collective instruction, none rewriting P, and the sides are entered
 * only from A: a branch costs more than a few predicated-off issue slots, and divergence goes away.
 */
public final class IfConversion implements Pass {
    /** The most instructions a side may have: ptxas predicates short branches only. */
    public static final int MAX_SIDE = 4;

    /** The most instructions run unconditionally ahead of an or-ed guard (the compare chain that computes it). */
    static final int MAX_SPECULATED = 8;

    private static final Set<OpcodeGroup> NOT_PREDICABLE = Set.of(OpcodeGroup.CONTROL, OpcodeGroup.SYNC,
            OpcodeGroup.WARP, OpcodeGroup.MARKER, OpcodeGroup.PSEUDO, OpcodeGroup.TENSOR);

    /**
     * Opcodes the SASS form tables of every target (sm_75 ... sm_90) encode with a guard in several operand forms:
     * the tables were learned from ptxas's output and only hold guarded forms ptxas writes, so predicating anything
     * else could leave an instruction the assembler cannot encode.
     */
    private static final Set<String> GUARDED_FORMS = Set.of("IADD3", "IMAD", "ISETP", "LEA", "LOP3", "SEL", "SHF",
            "FADD", "FFMA", "FMUL", "FSETP", "DFMA", "LDC", "LDG", "LDS", "STG", "STS", "LD", "ST", "ATOMG");

    @Override
    public String name() {
        return "ifconv";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        boolean again = true;
        while (again) {
            again = false;
            // One scan converts every candidate it meets: a conversion only removes edges and leaves every block
            // reachable, so the scan's CFG, stale after it, still has every edge there is (a predecessor test on it
            // errs on the side of not converting) and the next scan, on a fresh CFG, takes what the last one made
            // possible. (Rebuilding the CFG after each conversion was quadratic: 10,000 diamonds, 40 s.)
            Cfg cfg = Cfg.of(body);
            List<BasicBlock> blocks = body.blocks();
            for (BasicBlock a : blocks) {
                if (!cfg.isReachable(a.id()) || a.id() + 2 >= blocks.size()) {
                    continue;
                }
                Instr br = a.last();
                if (br == null || !OpInfo.is(br, "BRA") || br.guard().isAlways() || !br.mods().isEmpty()
                        || br.srcs().size() != 1 || br.branchTarget() == null) {
                    continue;
                }
                int target = br.branchTarget().block();
                BasicBlock b = blocks.get(a.id() + 1);
                Guard taken = br.guard();
                Guard fallthrough = new Guard(taken.predicate(), !taken.negated());
                if (target == b.id() + 1 && onlyFrom(cfg, b.id(), a.id()) && convertible(b.instrs(), br, cx)) {
                    guardAll(b.instrs(), fallthrough);
                    a.instrs().remove(a.instrs().size() - 1);
                    changed = again = true;
                    continue;
                }
                if (target == b.id() + 1 && onlyFrom(cfg, b.id(), a.id()) && leavesConvertibly(b.instrs(), br, cx)) {
                    // the side leaves (RET or EXIT): predicated with its exit, it falls through to C when it runs
                    // not, as ptxas writes {@code @!P0 ST; @!P0 RET} for an early return
                    guardAll(b.instrs(), fallthrough);
                    a.instrs().remove(a.instrs().size() - 1);
                    changed = again = true;
                    continue;
                }
                if (target == b.id() + 1 && orChain(body, cfg, a, b, cx)) {
                    // the speculated block changed liveness: the rest waits for the next scan's fresh analysis
                    changed = again = true;
                    break;
                }
                Instr join = b.last();
                if (target == b.id() + 1 && join != null && OpInfo.is(join, "BRA") && join.guard().isAlways()
                        && join.mods().isEmpty() && join.branchTarget() != null
                        && join.branchTarget().block() == target + 1) {
                    BasicBlock c = blocks.get(target);
                    List<Instr> bBody = b.instrs().subList(0, b.instrs().size() - 1);
                    if (onlyFrom(cfg, b.id(), a.id()) && onlyFrom(cfg, c.id(), a.id())
                            && convertible(bBody, br, cx) && convertible(c.instrs(), br, cx)) {
                        b.instrs().remove(b.instrs().size() - 1);
                        guardAll(b.instrs(), fallthrough);
                        guardAll(c.instrs(), taken);
                        a.instrs().remove(a.instrs().size() - 1);
                        changed = again = true;
                    }
                }
            }
        }
        return changed;
    }

    /**
     * The short-circuit shape {@code A: @P BRA C; B: ...; @Q BRA D; C: ...; D:} ({@code if (p || !q) C}, as the
     * front end writes round-to-nearest-even and other or-ed guards): B's body is speculated (pure ALU work whose
     * results are dead on the path A to C), its branch becomes {@code R = P | !Q} and C is guarded by R. Both
     * branches go, so the blocks merge and loads below move up across them, as ptxas's code does.
     */
    private static boolean orChain(FunctionBody body, Cfg cfg, BasicBlock a, BasicBlock b, OptContext cx) {
        List<BasicBlock> blocks = body.blocks();
        Instr first = a.last();
        Instr second = b.last();
        if (second == null || !OpInfo.is(second, "BRA") || second.guard().isAlways() || !second.mods().isEmpty()
                || second.srcs().size() != 1 || second.branchTarget() == null || b.id() + 2 >= blocks.size()) {
            return false;
        }
        BasicBlock c = blocks.get(b.id() + 1);
        if (second.branchTarget().block() != c.id() + 1 || !onlyFrom(cfg, b.id(), a.id())) {
            return false;
        }
        int[] cPreds = cfg.predecessors(c.id());
        if (cPreds.length != 2 || !(cPreds[0] == a.id() && cPreds[1] == b.id()
                || cPreds[0] == b.id() && cPreds[1] == a.id())) {
            return false;
        }
        Reg p = first.guard().predicate();
        Reg q = second.guard().predicate();
        List<Instr> bBody = b.instrs().subList(0, b.instrs().size() - 1);
        if (bBody.size() > MAX_SPECULATED || p.isZero() || q.isZero()) {
            return false;
        }
        Liveness live = new Liveness(body, cfg);
        for (Instr in : bBody) {
            if (!in.guard().isAlways() || !OpInfo.isRepeatable(in) || OpInfo.is(in, "LDC") || Rewrites.writes(in, p)) {
                return false;
            }
            for (Reg d : in.dsts()) {
                if (!d.isZero() && (!d.virtual() || live.liveIn(c.id(), d))) {
                    return false;
                }
            }
        }
        if (!convertible(c.instrs(), second, cx)) {
            return false;
        }
        Reg r = body.newVirtual(RegFile.P, 1);
        Guard cGuard = new Guard(r, false);
        // C runs when A branches (P, as A's guard reads it) or B does not (Q, as B's guard reads it, false)
        int aTaken = first.guard().negated() ? ~0xf0 : 0xf0;
        int bFalls = second.guard().negated() ? 0xcc : ~0xcc;
        Instr or = new Instr(OpInfo.op("PLOP3"), List.of("LUT"), List.of(r, Reg.PT),
                List.of(Src.of(p), Src.of(q), Src.of(Reg.PT), Src.of(Imm.ofInt((aTaken | bFalls) & 0xff)),
                        Src.of(Imm.ofInt(0))), Guard.ALWAYS, second.line());
        b.instrs().set(b.instrs().size() - 1, or);
        guardAll(c.instrs(), cGuard);
        a.instrs().remove(a.instrs().size() - 1);
        return true;
    }

    private static boolean onlyFrom(Cfg cfg, int block, int pred) {
        int[] p = cfg.predecessors(block);
        return p.length == 1 && p[0] == pred;
    }

    /** Without the backend's answer: opcodes with guarded forms everywhere, in the operand shapes ptxas writes. */
    private static boolean habituallyGuarded(Instr in) {
        if (!GUARDED_FORMS.contains(in.op().name())) {
            return false;
        }
        for (org.jptxas.ori.ir.Src s : in.srcs()) {
            Boolean p = OpInfo.constPred(s);
            if (p != null && p) {
                return false;
            }
        }
        return true;
    }

    private static boolean convertible(List<Instr> side, Instr branch, OptContext cx) {
        if (side.isEmpty() || side.size() > MAX_SIDE) {
            return false;
        }
        for (Instr in : side) {
            if (!in.guard().isAlways() || in.isTerminator() || NOT_PREDICABLE.contains(in.op().group())
                    || OpInfo.is(in, "VOTE") || Rewrites.writes(in, branch.guard().predicate())) {
                return false;
            }
            Instr guarded = new Instr(in.op(), in.mods(), in.dsts(), in.srcs(), branch.guard(), in.line());
            if (!cx.canEncode(guarded).orElseGet(() -> habituallyGuarded(in))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A side that ends in an unguarded return or exit, with at most {@link #MAX_SIDE} convertible instructions before
     * it and no load among them (ptxas: two stores and their two moves with the RET are predicated, three and their
     * three moves are not, nor a load and its store).
     */
    private static boolean leavesConvertibly(List<Instr> side, Instr branch, OptContext cx) {
        Instr last = side.isEmpty() ? null : side.get(side.size() - 1);
        if (last == null || !last.endsControl() || !(OpInfo.is(last, "RET") || OpInfo.is(last, "EXIT"))) {
            return false;
        }
        // the terminator is not asked about: a RET takes its final operands (the return-address pair) only after
        // register allocation, and a guarded RET or EXIT is what the branch cleanup writes anyway
        List<Instr> before = side.subList(0, side.size() - 1);
        for (Instr in : before) {
            OpcodeGroup g = in.op().group();
            if (g == OpcodeGroup.ATOMIC || g == OpcodeGroup.TEXTURE || g == OpcodeGroup.MEMORY && !in.dsts().isEmpty()) {
                return false;
            }
        }
        return before.isEmpty() || convertible(before, branch, cx);
    }

    private static void guardAll(List<Instr> side, Guard g) {
        for (Instr in : side) {
            in.setGuard(g);
        }
    }
}
