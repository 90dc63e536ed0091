package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Src;

/**
 * Full unrolling of loops whose trip count is known at compile time, as ptxas does at -O3: the loop's blocks are
 * laid out once per iteration and the back branch goes away, so the folders see each iteration's induction values as
 * constants (and web splitting gives each copy its own registers).
 *
 * <p>The loops handled are the ones PTX producers write: blocks contiguous in layout from the header to the latch,
 * entered only at the header, left only by the latch's fall-through, the latch ending in a conditional branch back to
 * the header. {@link TripCount} finds the trip count by running the instructions the exit predicate depends on;
 * as in ptxas 13, only a counter that steps by adding a constant counts (one that doubles or shifts keeps its loop).
 * A header marked {@code .pragma "nounroll"} is left alone. The driver runs this pass at -O3.
 *
 * <p>Limits (ptxas 13 at -O3 on sm_80, measured with a counted loop of N iterations around a body of B dependent
 * IMADs): fully unrolled up to N = 7437 for B = 1, 2901 for B = 2, at least 256 (not 1024) for B = 4 and 8, at least
 * 64 (not 256) for B = 16, 16 (not 64) for B = 32 and 4 (not 8) for B = 64; 21 iterations of 128 XORs stay a loop.
 * Larger loops stay loops (ptxas unrolls them partially, which this pass does not). Loops with barriers and loads
 * unroll alike; a loop with an atomic (16 x 4) stays a loop, as does one whose header has {@code .pragma "nounroll"}.
 * The rule here: at most {@link #MAX_BODY} Ori instructions per iteration and {@link #MAX_COPIED} in all, which
 * unrolls less than ptxas for bodies of a few instructions and bounds compile time. A subroutine's loop whose carried
 * values start from the subroutine's parameters ({@link ParameterLoopState}), which ptxas unrolls far past those
 * limits (keccak_f800's 21 rounds), is unrolled up to {@link #MAX_PARAMETER_BODY} instructions a round within the
 * function's budget.
 */
public final class LoopUnrolling implements Pass {
    /** The most iterations unrolled. */
    static final int MAX_TRIPS = 4096;
    /** The most instructions one unrolled loop may have in all (its body times its trip count). */
    static final int MAX_COPIED = 2048;
    /** The largest loop body unrolled. */
    static final int MAX_BODY = 96;
    /** The largest body unrolled of a subroutine's loop that starts from its parameters ({@link ParameterLoopState}). */
    static final int MAX_PARAMETER_BODY = 512;
    /** The most instructions unrolling may add to a function. */
    static final int MAX_GROWTH = 20000;

    @Override
    public String name() {
        return "unroll";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        int budget = MAX_GROWTH;
        // one loop at a time: unrolling renumbers the blocks after it
        for (int guard = 0; guard < 64; guard++) {
            Candidate c = find(body, budget);
            if (c == null) {
                break;
            }
            budget -= c.size() * (c.trips() - 1);
            unroll(body, c);
            changed = true;
        }
        return changed;
    }

    /** A loop from block {@code header} to block {@code latch} in layout, run {@code trips} times. */
    record Candidate(int header, int latch, int trips, int size) {}

    private static Candidate find(FunctionBody body, int budget) {
        Cfg cfg = Cfg.of(body);
        Dominators dom = new Dominators(cfg);
        List<BasicBlock> blocks = body.blocks();
        // loops with a loop inside are not well formed: the first candidate that unrolls is an innermost loop
        for (int l = 0; l < blocks.size(); l++) {
            if (!cfg.isReachable(l)) {
                continue;
            }
            Instr last = blocks.get(l).last();
            if (last == null || !OpInfo.is(last, "BRA") || last.guard().isAlways() || !last.mods().isEmpty()
                    || last.srcs().size() != 1 || last.branchTarget() == null) {
                continue;
            }
            int h = last.branchTarget().block();
            if (h > l || !dom.dominates(h, l) || l + 1 >= blocks.size() || blocks.get(h).noUnroll()) {
                continue;
            }
            if (!wellFormed(cfg, blocks, h, l)) {
                continue;
            }
            int size = 0;
            for (int b = h; b <= l; b++) {
                size += blocks.get(b).instrs().size();
            }
            // a subroutine's loop that starts from its parameters unrolls within the function's budget alone
            boolean fromParameters = size > MAX_BODY && size <= MAX_PARAMETER_BODY
                    && ParameterLoopState.startsFromParameters(body, h, l);
            if (size > MAX_BODY && !fromParameters) {
                continue;
            }
            int copied = fromParameters ? MAX_GROWTH : MAX_COPIED;
            int maxTrips = Math.min(MAX_TRIPS, Math.min(copied, budget + size) / Math.max(1, size));
            if (maxTrips < 1) {
                continue;
            }
            int trips = TripCount.of(body, cfg, dom, h, l, maxTrips);
            if (trips >= 1) {
                return new Candidate(h, l, trips, size);
            }
        }
        return null;
    }

    /**
     * Blocks {@code h..l} are the whole loop, without a loop inside: every block in the range is reached from the header, only the header
     * has predecessors outside the range, only the latch's fall-through leaves it, and nothing in it is an exit,
     * a call, an indirect branch or a convergence barrier whose copies would need new resources.
     */
    private static boolean wellFormed(Cfg cfg, List<BasicBlock> blocks, int h, int l) {
        for (int b = h; b <= l; b++) {
            if (!cfg.isReachable(b)) {
                return false;
            }
            for (int p : cfg.predecessors(b)) {
                if ((p < h || p > l) && b != h) {
                    return false;
                }
            }
            for (int s : cfg.successors(b)) {
                boolean inside = s >= h && s <= l;
                if (!inside && !(b == l && s == l + 1)) {
                    return false;
                }
                // no loop inside (an inner one is unrolled first or keeps this one a loop): every iteration then
                // runs each block at most once, which the trip count's simulation relies on
                if (inside && s <= b && !(b == l && s == h)) {
                    return false;
                }
            }
            for (Instr in : blocks.get(b).instrs()) {
                String op = in.op().name();
                if (in.isTerminator() && !op.equals("BRA") || op.startsWith("CALL") || op.startsWith("BSSY")
                        || op.startsWith("BSYNC") || op.startsWith("BMOV") || op.equals("WARPSYNC")
                        || op.startsWith("ATOM") || op.startsWith("RED")
                        || in.branchTargets().size() > 1) {
                    return false;
                }
            }
        }
        // the latch's back branch is the only edge into the header from inside
        for (int p : cfg.predecessors(h)) {
            if (p >= h && p <= l && p != l) {
                return false;
            }
        }
        return true;
    }

    /**
     * Lays the loop out {@code trips} times: copy k's branches inside the loop go to copy k's blocks, and each copy's
     * back branch is dropped (copy k falls through into copy k + 1, the last into the exit).
     */
    private static void unroll(FunctionBody body, Candidate c) {
        int h = c.header();
        int l = c.latch();
        int n = l - h + 1;
        List<BasicBlock> added = body.insertBlocks(l + 1, n * (c.trips() - 1));
        for (int k = 1; k < c.trips(); k++) {
            int shift = k * n;
            for (int i = 0; i < n; i++) {
                BasicBlock from = body.block(h + i);
                BasicBlock to = added.get((k - 1) * n + i);
                for (Instr in : from.instrs()) {
                    to.instrs().add(copy(in, h, l, shift));
                }
            }
        }
        // drop the back branches: the original's and every copy's
        for (int k = 0; k < c.trips(); k++) {
            List<Instr> latch = body.block(l + k * n).instrs();
            latch.remove(latch.size() - 1);
        }
    }

    private static Instr copy(Instr in, int h, int l, int shift) {
        List<Src> srcs = new ArrayList<>(in.srcs().size());
        for (Src s : in.srcs()) {
            if (s.value() instanceof BlockLabel t && t.block() >= h && t.block() <= l) {
                srcs.add(new Src(new BlockLabel(t.block() + shift), s.neg(), s.abs(), s.not()));
            } else {
                srcs.add(s);
            }
        }
        return new Instr(in.op(), in.mods(), new ArrayList<>(in.dsts()), srcs, in.guard(), in.line())
                .setContractible(in.contractible());
    }
}
