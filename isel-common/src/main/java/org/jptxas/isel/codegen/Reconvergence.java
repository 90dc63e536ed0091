package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Divergence;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.analysis.PostDominators;
import org.jptxas.ori.ir.BarrierReg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeGroup;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;

import org.jptxas.ori.target.TargetFeature;
/**
 * Volta SIMT reconvergence, as ptxas lays it out: a warp split by a divergent branch is re-joined at the branch's
 * immediate post-dominator with a convergence barrier, {@code BSSY Bn, join} where the region starts and
 * {@code BSYNC Bn} as the first instruction reaching the join (the {@code BSSY} label names the instruction after it).
 *
 * <p>Placement (observed on ptxas 13, sm_75 … sm_90):
 * <ul>
 *   <li>Only divergent branches ({@link Divergence}) get a barrier; branches on uniform values do not, nor branches
 *       whose post-dominator is the exit (both sides leave the kernel) or a block that only exits. A conditional branch to a block that only
 *       exits becomes a guarded {@code EXIT} first, as ptxas's, so early returns do not hide the join.</li>
 *   <li>A loop's exits share one barrier, set before the loop (the {@code BSSY} goes to the nearest dominator of the
 *       branch outside every loop that does not contain the join). Where a divergent branch between that block and
 *       the join can send lanes past the join (a divergent guard around the loop whose own join comes later), the
 *       loop gets no barrier: those lanes would never arrive at its {@code BSYNC}.</li>
 *   <li>Nested regions take the next barrier register (B0 outermost); regions one after another reuse B0.</li>
 *   <li>A region that contains a CTA barrier, or whose join starts with one, gets no {@code BSSY}: the barrier is
 *       preceded by {@code WARPSYNC 0xffffffff} ({@code WARPSYNC.ALL} on sm_90), which re-joins the warp.</li>
 *   <li>Warp-synchronous instructions ({@code SHFL}, {@code VOTE}, {@code MATCH}, {@code REDUX}, {@code ELECT})
 *       inside a divergent region get a {@code WARPSYNC} of the full warp before them, unless the lowering already put
 *       one there (partial member masks). ptxas branches to an out-of-line copy of the instruction after that
 *       WARPSYNC when the warp is not converged ({@code BRA.DIV}); the plain WARPSYNC computes the same.</li>
 *   <li>sm_75 clears each barrier register ({@code BMOV.32.CLEAR RZ, Bn}) before its {@code BSSY}.</li>
 * </ul>
 * Irregular regions (a join reachable from outside the region, improperly nested regions, more than 16 levels) are
 * left without a barrier: the warp then re-joins at the next barrier, WARPSYNC or exit, as before this pass.
 *
 * <p>Two steps: {@link #analyze} before register allocation (divergence is computed on virtual registers, which RA
 * later shares), {@link #insert} after it (barrier registers are not allocatable, so RA never sees them).
 */
public final class Reconvergence {
    private static final long FULL_MASK = 0xffffffffL;
    private final Set<Instr> divergentBranches;

    private Reconvergence(Set<Instr> divergentBranches) {
        this.divergentBranches = divergentBranches;
    }

    /** Canonicalises exit branches and records which branch instructions diverge. */
    public static Reconvergence analyze(OriFunction f, CodegenContext cx) {
        FunctionBody body = f.body();
        if (f.entry()) {
            foldExitBranches(body);
        }
        foldFullMasks(body);
        dropRepeatedFullWarpSyncs(body);
        Cfg cfg = Cfg.of(body);
        Divergence divergence = new Divergence(body, cfg, new PostDominators(cfg));
        Set<Instr> branches = Collections.newSetFromMap(new IdentityHashMap<>());
        for (BasicBlock b : body.blocks()) {
            if (divergence.isDivergentBranch(b.id())) {
                branches.add(b.last());
            }
        }
        return new Reconvergence(branches);
    }

    /** The branches {@link #analyze} found divergent (by identity; RA rewrites instructions in place). */
    public Set<Instr> divergentBranches() {
        return Collections.unmodifiableSet(divergentBranches);
    }

    /** Inserts the barriers and WARPSYNCs into the allocated function (no callee of it returns apart). */
    public void insert(OriFunction f, CodegenContext cx) {
        insert(f, cx, Set.of());
    }

    /**
     * Whether the lanes of a warp may leave subroutine {@code f} at different times: it has several returns, a
     * guarded one, or a lone return that a branch reaches (such a join gets no barrier: {@link #onlyExits}).
     */
    public static boolean mayReturnApart(OriFunction f) {
        FunctionBody body = f.body();
        Cfg cfg = Cfg.of(body);
        int returns = 0;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!in.op().name().equals("RET")) {
                    continue;
                }
                returns++;
                if (!in.guard().isAlways()) {
                    return true;
                }
                if (b.instrs().size() == 1 && cfg.isReachable(b.id())) {
                    int[] preds = cfg.predecessors(b.id());
                    if (preds.length > 1 || preds.length == 1 && body.block(preds[0]).last() != null
                            && body.block(preds[0]).last().isTerminator()) {
                        return true;
                    }
                }
            }
        }
        return returns > 1;
    }

    /**
     * Inserts the barriers and WARPSYNCs into the allocated function; {@code returningApart} names the subroutines
     * whose lanes may come back at different times ({@link #mayReturnApart}): as ptxas does, a call to one sits in a
     * region of its own, so the lanes re-join right after it.
     */
    public void insert(OriFunction f, CodegenContext cx, Set<String> returningApart) {
        FunctionBody body = f.body();
        Cfg cfg = Cfg.of(body);
        Dominators dom = new Dominators(cfg);
        PostDominators pdom = new PostDominators(cfg);
        int n = cfg.size();
        List<Region> regions = new ArrayList<>();
        BitSet divergentBlocks = new BitSet();
        List<Integer> unjoined = new ArrayList<>();
        for (int b : cfg.reversePostorder()) {
            Instr last = body.block(b).last();
            if (last == null || !divergentBranches.contains(last)) {
                continue;
            }
            int join = pdom.ipdom(b);
            BitSet inside = Divergence.region(cfg, b, join < 0 || join == pdom.exit() ? -1 : join);
            divergentBlocks.or(inside);
            if (join < 0 || join == pdom.exit() || onlyExits(body.block(join))) {
                continue;
            }
            if (containsBarrier(body, inside, cx.has(TargetFeature.WARPSYNC_ALL))) {
                unjoined.add(join);
                continue;
            }
            if (regions.stream().anyMatch(r -> r.join == join && (r.blocks.get(b) || r.start == b))) {
                continue;
            }
            int start = regionStart(cfg, dom, b, join);
            if (start < 0 || !dom.dominates(start, join)) {
                unjoined.add(join);
                continue;
            }
            BitSet blocks = Divergence.region(cfg, start, join);
            blocks.set(start);
            if (!allPredecessorsInside(cfg, join, blocks) || !everyLaneReachesJoin(body, pdom, blocks, join)) {
                unjoined.add(join);
                continue;
            }
            regions.removeIf(r -> r.join == join && blocks.get(r.start));
            regions.add(new Region(start, join, blocks));
        }
        List<Region> placed = nest(regions);
        for (Region r : regions) {
            if (!placed.contains(r)) {
                unjoined.add(r.join);
            }
        }
        // Where the warp may still be split: inside divergent regions, and after joins left without a barrier.
        BitSet split = (BitSet) divergentBlocks.clone();
        for (int join : unjoined) {
            split.set(join);
            split.or(Divergence.region(cfg, join, -1));
        }
        fullWarpSyncs(body, cx, split);
        warpSyncs(body, cx, split);
        place(body, cx, placed, n);
        int deepest = placed.stream().mapToInt(r -> r.depth).max().orElse(-1);
        wrapCalls(body, cx, deepest + 1, returningApart);
    }

    /**
     * An indirect call may send the lanes of a warp to different functions, and a subroutine that returns apart sends
     * them back at different times; as ptxas does, each such call sits in a region
     * of its own, {@code BSSY Bn} before the call and {@code BSYNC Bn} where it returns to (the return address is the
     * instruction after the {@code CALL}), so the lanes re-join there. The barrier is above every one the function's
     * own regions use, so a call inside a region never reuses the enclosing barrier.
     */
    private static void wrapCalls(FunctionBody body, CodegenContext cx, int depth, Set<String> returningApart) {
        if (depth >= BarrierReg.COUNT) {
            // regions nested 16 deep hold every barrier: the calls' lanes re-join at the next barrier, as the lanes
            // of regions nested deeper do (the register was made before looking for a call: kernels without one
            // failed with "B16 out of range")
            return;
        }
        OriOpcodes ops = OriOpcodes.get();
        BarrierReg barrier = new BarrierReg(depth);
        for (int b = 0; b < body.blocks().size(); b++) {
            List<Instr> instrs = body.block(b).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr call = instrs.get(i);
                if (!CallFrames.isIndirectCall(call) && !(CallFrames.isCall(call)
                        && call.srcs().get(0).value() instanceof org.jptxas.ori.ir.Sym callee
                        && returningApart.contains(callee.name()) && !onlyExitAfter(instrs, i))) {
                    continue;
                }
                // the continuation becomes a block of its own, so the BSSY can name it
                BasicBlock rest = body.insertBlock(b + 1, null);
                List<Instr> tail = instrs.subList(i + 1, instrs.size());
                rest.instrs().addAll(tail);
                tail.clear();
                instrs.add(new Instr(ops.require("BSYNC"), List.of(), List.of(), List.of(Src.of(barrier)), Guard.ALWAYS,
                        call.line()));
                // the return-address moves come later (CallFrames), between the BSSY and the CALL
                insertBssy(instrs, i, barrier, b + 1, call.line(), cx.has(TargetFeature.CLEAR_BARRIER_BEFORE_BSSY));
                break; // the continuation is the next block; it is scanned next
            }
        }
    }

    /** The call at {@code i} is followed by an unguarded EXIT alone: the lanes leave as they come back. */
    private static boolean onlyExitAfter(List<Instr> instrs, int i) {
        return i + 2 == instrs.size() && instrs.get(i + 1).op().name().equals("EXIT")
                && instrs.get(i + 1).guard().isAlways();
    }

    /** {@code BSSY barrier, join} at {@code at}, first clearing the barrier register where ptxas does (sm_75). */
    private static void insertBssy(List<Instr> instrs, int at, BarrierReg barrier, int join, int line,
            boolean clearFirst) {
        OriOpcodes ops = OriOpcodes.get();
        instrs.add(at, new Instr(ops.require("BSSY"), List.of(), List.of(),
                List.of(Src.of(barrier), Src.of(new BlockLabel(join))), Guard.ALWAYS, line));
        if (clearFirst) {
            instrs.add(at, new Instr(ops.require("BMOV"), List.of("32", "CLEAR"), List.of(Reg.RZ),
                    List.of(Src.of(barrier)), Guard.ALWAYS, line));
        }
    }

    /** A region from the block holding its BSSY to its join; {@code depth} is the barrier register. */
    private static final class Region {
        final int start;
        final int join;
        final BitSet blocks;
        int depth;

        Region(int start, int join, BitSet blocks) {
            this.start = start;
            this.join = join;
            this.blocks = blocks;
        }

        boolean contains(Region other) {
            return other != this && (blocks.get(other.start) || (start == other.start && blocks.get(other.join)))
                    && (blocks.get(other.join) || join == other.join);
        }

        boolean overlapsImproperly(Region other) {
            return other != this && (blocks.get(other.start) || start == other.start)
                    && !blocks.get(other.join) && join != other.join && !other.contains(this);
        }
    }

    /** Assigns barrier registers by nesting depth, dropping regions that do not nest properly. */
    private static List<Region> nest(List<Region> regions) {
        List<Region> kept = new ArrayList<>(regions);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Region r : kept) {
                for (Region o : kept) {
                    if (r.overlapsImproperly(o)) {
                        kept.remove(o);
                        changed = true;
                        break;
                    }
                }
                if (changed) {
                    break;
                }
            }
        }
        List<Region> out = new ArrayList<>();
        for (Region r : kept) {
            r.depth = (int) kept.stream().filter(o -> o.contains(r)).count();
            if (r.depth < BarrierReg.COUNT) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Where the BSSY of a branch goes: the branch's block, or, when that block is on a cycle that avoids the join (a
     * loop the warp leaves at the join), the nearest dominator off every such cycle.
     */
    private static int regionStart(Cfg cfg, Dominators dom, int branch, int join) {
        int p = branch;
        while (onCycleAvoiding(cfg, p, join)) {
            int up = dom.idom(p);
            if (up < 0 || up == p) {
                return -1;
            }
            p = up;
        }
        return p;
    }

    /**
     * Whether every lane that runs the region's BSSY arrives at its BSYNC (or exits): no divergent branch between the
     * BSSY and the join may send some lanes where the join does not follow. A loop's BSSY moves up to a dominator
     * outside the loop; when that block ends in a divergent branch around the loop (a guarded loop whose exit is not
     * the guard's join: code, or an empty block, between them), the lanes that skip the loop never reach the loop's
     * BSYNC, and the lanes that ran it wait there for them forever.
     */
    private boolean everyLaneReachesJoin(FunctionBody body, PostDominators pdom, BitSet blocks, int join) {
        for (int b = blocks.nextSetBit(0); b >= 0; b = blocks.nextSetBit(b + 1)) {
            Instr last = body.block(b).last();
            if (last != null && divergentBranches.contains(last) && !pdom.postDominates(join, b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean onCycleAvoiding(Cfg cfg, int block, int join) {
        return Divergence.region(cfg, block, join).get(block);
    }

    private static boolean allPredecessorsInside(Cfg cfg, int join, BitSet blocks) {
        for (int p : cfg.predecessors(join)) {
            if (cfg.isReachable(p) && !blocks.get(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A join that only exits or returns needs no barrier: the threads leave as they arrive (ptxas, from -O0 on,
     * lets a subroutine's lanes return apart, each arm through its own RET or through one lone RET).
     */
    private static boolean onlyExits(BasicBlock b) {
        if (b.instrs().size() != 1 || !b.instrs().get(0).guard().isAlways()) {
            return false;
        }
        String op = b.instrs().get(0).op().name();
        return op.equals("EXIT") || op.equals("RET");
    }

    /**
     * A CTA barrier in the region; with {@code warpSyncAll} (sm_90) also a warp-synchronous instruction (ptxas then
     * uses WARPSYNC).
     */
    private static boolean containsBarrier(FunctionBody body, BitSet blocks, boolean warpSyncAll) {
        for (int b = blocks.nextSetBit(0); b >= 0; b = blocks.nextSetBit(b + 1)) {
            for (Instr in : body.block(b).instrs()) {
                if (isCtaBarrier(in) || warpSyncAll && isWarpSynchronous(in)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isCtaBarrier(Instr in) {
        return in.op().name().equals("BAR") && !in.hasMod("ARV");
    }

    /** Instructions that need the threads their member mask names to be converged. */
    private static boolean isWarpSynchronous(Instr in) {
        return switch (in.op().name()) {
            case "SHFL", "MATCH", "REDUX", "ELECT", "MOVM" -> true;
            // VOTE.ANY R, PT, PT is activemask: it reports the current convergence and must not wait for it.
            case "VOTE" -> !(in.srcs().size() == 1 && in.srcs().get(0).value() instanceof Reg r && r.isZero()
                    && !in.srcs().get(0).not());
            default -> false;
        };
    }

    private static void warpSyncs(FunctionBody body, CodegenContext cx, BitSet split) {
        for (BasicBlock b : body.blocks()) {
            boolean divergentHere = split.get(b.id());
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                boolean needs = divergentHere && (isWarpSynchronous(in) || isCtaBarrier(in));
                if (needs && !(i > 0 && instrs.get(i - 1).op().name().equals("WARPSYNC"))) {
                    Instr sync = fullWarpSync(cx.has(TargetFeature.WARPSYNC_ALL), in.line());
                    if (!in.guard().isAlways() && isWarpSynchronous(in)) {
                        sync.setGuard(in.guard());
                    }
                    instrs.add(i, sync);
                    i++;
                }
            }
        }
    }

    /**
     * A full-warp WARPSYNC where the warp is converged goes (ptxas leaves nothing for a full member mask held in a
     * register, and a NOP for {@code bar.warp.sync -1}, which we drop too: a converged warp runs in lockstep); where
     * the warp may be split it stays, spelled {@code WARPSYNC.ALL} on sm_90 (which has no immediate form).
     */
    private static void fullWarpSyncs(FunctionBody body, CodegenContext cx, BitSet split) {
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                if (!isFullWarpSync(in) || !in.guard().isAlways()) {
                    continue;
                }
                if (split.get(b.id())) {
                    instrs.set(i, fullWarpSync(cx.has(TargetFeature.WARPSYNC_ALL), in.line()));
                } else {
                    instrs.remove(i--);
                }
            }
        }
    }

    private static boolean isFullWarpSync(Instr in) {
        if (!in.op().name().equals("WARPSYNC")) {
            return false;
        }
        if (in.srcs().isEmpty()) {
            return in.hasMod("ALL");
        }
        return in.srcs().size() == 1 && in.srcs().get(0).value() instanceof Imm imm
                && (imm.bits() & FULL_MASK) == FULL_MASK && !in.srcs().get(0).hasModifiers();
    }

    /**
     * {@code WARPSYNC %r} whose mask register only ever holds the full warp ({@code mov.u32 %r, -1}) takes the
     * immediate, so that the insertion step can drop or keep it knowing the mask; the MOV goes when nothing else
     * reads the register.
     */
    static void foldFullMasks(FunctionBody body) {
        // the def and use tables below cost a walk with hashing and boxing per operand: most kernels name no mask
        // register at all
        if (!hasRegisterMaskedWarpSync(body)) {
            return;
        }
        Map<Reg, List<Instr>> defs = new java.util.HashMap<>();
        Map<Reg, Integer> uses = new java.util.HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    if (d.virtual()) {
                        defs.computeIfAbsent(d.whole(), k -> new ArrayList<>()).add(in);
                    }
                }
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        uses.merge(r.whole(), 1, Integer::sum);
                    }
                }
            }
        }
        Map<Reg, Integer> folded = new java.util.HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!registerMaskedWarpSync(in)) {
                    continue;
                }
                Reg r = (Reg) in.srcs().get(0).value();
                List<Instr> ds = defs.getOrDefault(r, List.of());
                if (ds.isEmpty() || !ds.stream().allMatch(Reconvergence::movesFullMask)) {
                    continue;
                }
                in.srcs().set(0, Src.of(new Imm(FULL_MASK)));
                folded.merge(r, 1, Integer::sum);
            }
        }
        for (Map.Entry<Reg, Integer> e : folded.entrySet()) {
            if (e.getValue().equals(uses.get(e.getKey()))) {
                Set<Instr> dead = Collections.newSetFromMap(new IdentityHashMap<>());
                dead.addAll(defs.get(e.getKey()));
                for (BasicBlock b : body.blocks()) {
                    b.instrs().removeIf(dead::contains);
                }
            }
        }
    }

    private static boolean hasRegisterMaskedWarpSync(FunctionBody body) {
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                if (registerMaskedWarpSync(instrs.get(i))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code WARPSYNC %r}: its mask in one whole virtual register, unmodified. */
    private static boolean registerMaskedWarpSync(Instr in) {
        return in.op().name().equals("WARPSYNC") && in.srcs().size() == 1
                && in.srcs().get(0).value() instanceof Reg r && r.virtual() && !r.isPart()
                && !in.srcs().get(0).hasModifiers();
    }

    /**
     * A full-warp WARPSYNC that repeats one earlier in its block, with no control instruction between them, goes: the
     * warp the first one joined cannot split without a branch, call or exit, so the second joins nothing. Each one
     * would otherwise stay an ordering point the scheduler cannot cross until {@link #insert} drops the converged ones
     * after allocation, and a butterfly reduction's shuffles (one WARPSYNC each) would run one chain at a time.
     */
    static void dropRepeatedFullWarpSyncs(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            boolean joined = false;
            for (java.util.Iterator<Instr> it = b.instrs().iterator(); it.hasNext(); ) {
                Instr in = it.next();
                if (isFullWarpSync(in) && in.guard().isAlways()) {
                    if (joined) {
                        it.remove();
                    }
                    joined = true;
                } else if (in.op().group() == OpcodeGroup.CONTROL || in.op().name().equals("WARPSYNC")) {
                    joined = false;
                }
            }
        }
    }

    private static boolean movesFullMask(Instr in) {
        return in.op().name().equals("MOV") && in.guard().isAlways() && in.dsts().size() == 1
                && in.srcs().size() == 1 && in.srcs().get(0).value() instanceof Imm imm
                && (imm.bits() & FULL_MASK) == FULL_MASK && !in.srcs().get(0).hasModifiers();
    }

    private static Instr fullWarpSync(boolean warpSyncAll, int line) {
        OriOpcode warpsync = OriOpcodes.get().require("WARPSYNC");
        if (warpSyncAll) {
            return new Instr(warpsync, List.of("ALL"), List.of(), List.of(), Guard.ALWAYS, line);
        }
        return new Instr(warpsync, List.of(), List.of(), List.of(Src.of(new Imm(FULL_MASK))), Guard.ALWAYS, line);
    }

    /**
     * The PTX line of a branch constant folding deleted at the end of an emptied block that control falls through
     * into {@code start} from (only empty blocks between them), or that took in {@code start}'s code, or 0. ptxas 13
     * gives the region's BSSY that line: a flag test {@code and; setp; @p bra} (compare at {@code .loc} 0, branch at
     * line 189) left alone in a join block before a divergent region, with the flag constant, puts its BSSY at the
     * emptied join under line 189. The emptied block must start a block of ptxas's, a branch's target (it or an
     * empty block before it): a folded branch after straight-line code (a store at line 187 before it, or loads
     * before a debug label jptxas splits at) leaves the BSSY without the branch's line.
     */
    private static int foldedBranchAbove(FunctionBody body, int start) {
        int marked = body.block(start).foldedBranchLine() > 0 ? start : -1;
        int b = start - 1;
        for (; b >= 0 && body.block(b).instrs().isEmpty(); b--) {
            if (marked < 0 && body.block(b).foldedBranchLine() > 0) {
                marked = b;
            }
        }
        if (marked < 0) {
            return 0;
        }
        if (b < 0) {
            return body.block(marked).foldedBranchLine(); // the function's entry
        }
        BitSet targets = new BitSet();
        for (BasicBlock block : body.blocks()) {
            for (Instr in : block.instrs()) {
                for (BlockLabel t : in.branchTargets()) {
                    targets.set(t.block());
                }
            }
        }
        // the empty run [b + 1, marked] begins at a block ptxas has too when a branch enters it
        int first = targets.nextSetBit(b + 1);
        return first >= 0 && first <= marked ? body.block(marked).foldedBranchLine() : 0;
    }

    /** Puts each region's BSSY before its start block's terminator and its BSYNC in a new block before the join. */
    private static void place(FunctionBody body, CodegenContext cx, List<Region> regions, int blockCount) {
        OriOpcodes ops = OriOpcodes.get();
        // Insert BSSYs, outermost first, before the terminator of the start block. The join block is named by its
        // first instruction-to-be so that block insertion below cannot make the reference stale.
        List<Region> byDepth = new ArrayList<>(regions);
        byDepth.sort(Comparator.comparingInt((Region r) -> r.depth));
        for (Region r : byDepth) {
            BasicBlock start = body.block(r.start);
            List<Instr> instrs = start.instrs();
            int at = instrs.size();
            Instr last = start.last();
            if (last != null && last.isTerminator()) {
                at--;
            }
            int folded = foldedBranchAbove(body, r.start);
            insertBssy(instrs, at, new BarrierReg(r.depth), r.join, folded > 0 ? folded : last != null ? last.line() : 0,
                    cx.has(TargetFeature.CLEAR_BARRIER_BEFORE_BSSY));
        }
        // One BSYNC block per join, inner barriers first. Everything is gathered on the current block ids first.
        TreeMap<Integer, List<Region>> byJoin = new TreeMap<>();
        for (Region r : regions) {
            byJoin.computeIfAbsent(r.join, k -> new ArrayList<>()).add(r);
        }
        Map<Integer, List<Instr>> retargets = new TreeMap<>();
        Map<Integer, Integer> lines = new TreeMap<>();
        for (Map.Entry<Integer, List<Region>> e : byJoin.entrySet()) {
            int join = e.getKey();
            BitSet inside = new BitSet();
            for (Region r : e.getValue()) {
                inside.or(r.blocks);
            }
            // Branches from inside the regions go to the BSYNC block; the BSSYs keep naming the join itself, the
            // instruction after the BSYNCs.
            List<Instr> retarget = new ArrayList<>();
            for (int b = inside.nextSetBit(0); b >= 0; b = inside.nextSetBit(b + 1)) {
                for (Instr in : body.block(b).instrs()) {
                    BlockLabel t = in.branchTarget();
                    if (t != null && t.block() == join && !in.op().name().equals("BSSY")) {
                        retarget.add(in);
                    }
                }
            }
            retargets.put(join, retarget);
            List<Instr> first = body.block(join).instrs();
            lines.put(join, first.isEmpty() ? 0 : first.get(0).line());
        }
        // One insertion for all joins: a block before each join, branch targets renumbered once.
        int[] joins = byJoin.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        List<BasicBlock> syncs = body.insertBlocks(joins);
        for (int k = 0; k < joins.length; k++) {
            int join = joins[k];
            List<Region> ending = byJoin.get(join);
            ending.sort(Comparator.comparingInt((Region r) -> r.depth).reversed());
            BasicBlock sync = syncs.get(k);
            for (Region r : ending) {
                sync.instrs().add(new Instr(ops.require("BSYNC"), List.of(), List.of(),
                        List.of(Src.of(new BarrierReg(r.depth))), Guard.ALWAYS, lines.get(join)));
            }
            // the join itself is now the block after the BSYNC block
            for (Instr in : retargets.get(join)) {
                List<Src> srcs = in.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    if (srcs.get(i).value() instanceof BlockLabel l && l.block() == sync.id() + 1) {
                        srcs.set(i, Src.of(new BlockLabel(sync.id())));
                    }
                }
            }
        }
    }

    /**
     * Turns {@code @P BRA target} into {@code @P EXIT} when the target block only exits, as ptxas does: the threads
     * leave at once and the branch no longer hides where the others re-join.
     */
    static void foldExitBranches(FunctionBody body) {
        OriOpcode exit = OriOpcodes.get().require("EXIT");
        for (BasicBlock b : body.blocks()) {
            Instr last = b.last();
            if (last == null || !last.op().name().equals("BRA") || last.guard().isAlways()) {
                continue;
            }
            BlockLabel t = last.branchTarget();
            if (t == null || t.block() == b.id()) {
                continue;
            }
            List<Instr> target = body.block(t.block()).instrs();
            if (target.size() == 1 && target.get(0).op().name().equals("EXIT") && target.get(0).guard().isAlways()
                    && target.get(0).srcs().isEmpty()) {
                b.instrs().set(b.instrs().size() - 1,
                        new Instr(exit, List.of(), List.of(), List.of(), last.guard(), last.line()));
            }
        }
    }
}
