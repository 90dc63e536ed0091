package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.analysis.LoopNesting;
import org.jptxas.ori.analysis.RegisterPressure;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Compares of a loop whose inputs no instruction of the loop writes move to the end of the loop's preheader (its one
 * predecessor outside the loop), keeping their source lines, as ptxas 13 moves an invariant setp out of a loop
 * (Triton's masked loads: the compare of a loop-invariant bound, joined into each load's 64-bit address test). Each
 * moved value is the one write of its register and dominates its reads, so the preheader's copy, which dominates the
 * loop, gives every read the same value; the instruction may now run where the loop body would have skipped it,
 * harmless for pure code. A moved predicate is live across the whole loop: it moves only while every point of the
 * loop keeps its live predicates within the file's seven registers, so moving it adds no predicate spill. (ptxas
 * moves the invariant setp of Triton v3.3.0's flash-attention loop and keeps v3.2.0's, whose and.preds also guard
 * four copies each; this estimate keeps both, and the function's predicate peak as the limit would move both.)
 * <p>
 * Values in general registers stay, although ptxas also moves invariant shifts and most of a division's expansion:
 * measured on the corpus, moving them even within the function's estimated peak ({@link RegisterPressure}) raised
 * the allocated register count (SDK scan_best 20 to 22, Rodinia hwt 48 to 50), the estimate missing the
 * temporaries lowering adds later. Runs after InstructionCombining and before CompareChaining, which would
 * otherwise repeat the invariant compare into each and.pred of the loop.
 */
public final class LoopInvariantCodeMotion implements Pass {
    @Override
    public String name() {
        return "licm";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        Cfg cfg = sd.cfg();
        Dominators dom = sd.dominators();
        boolean changed = false;
        // re-estimated after a loop's values moved: they now live across it and around the loops holding it
        Pressure pressure = new Pressure(body, cfg);
        for (int h = 0; h < cfg.size(); h++) {
            BitSet loop = LoopNesting.naturalLoop(cfg, dom, h);
            if (loop.isEmpty()) {
                continue;
            }
            int pre = preheader(cfg, loop, h);
            if (pre >= 0 && hoist(body, loop, body.block(pre), sd, pressure)) {
                changed = true;
                pressure.stale();
            }
        }
        return changed;
    }

    /** The register pressure, estimated when a loop first has a candidate and again after values moved. */
    private static final class Pressure {
        private final FunctionBody body;
        private final Cfg cfg;
        private RegisterPressure estimate;

        Pressure(FunctionBody body, Cfg cfg) {
            this.body = body;
            this.cfg = cfg;
        }

        RegisterPressure estimate() {
            if (estimate == null) {
                estimate = new RegisterPressure(body, cfg);
            }
            return estimate;
        }

        void stale() {
            estimate = null;
        }
    }

    /** The header's one predecessor outside the loop, or -1. */
    private static int preheader(Cfg cfg, BitSet loop, int header) {
        int pre = -1;
        for (int p : cfg.predecessors(header)) {
            if (!loop.get(p)) {
                if (pre >= 0 || !cfg.isReachable(p)) {
                    return -1;
                }
                pre = p;
            }
        }
        return pre;
    }

    private static boolean hoist(FunctionBody body, BitSet loop, BasicBlock pre, SingleDefs sd, Pressure pressure) {
        Set<Reg> written = new HashSet<>();
        for (int b = loop.nextSetBit(0); b >= 0; b = loop.nextSetBit(b + 1)) {
            for (Instr in : body.block(b).instrs()) {
                in.dsts().forEach(d -> written.add(d.whole()));
            }
        }
        // the moved instructions stay in place until the end, so the pressure's positions still hold
        Set<Instr> moving = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        List<Instr> moved = new ArrayList<>();
        boolean again = true;
        while (again) {
            again = false;
            for (int b = loop.nextSetBit(0); b >= 0; b = loop.nextSetBit(b + 1)) {
                for (Instr in : body.block(b).instrs()) {
                    if (!moving.contains(in) && invariant(in, written, sd) && fits(in, body, loop, pressure)) {
                        moving.add(in);
                        moved.add(in);
                        in.dsts().forEach(d -> written.remove(d.whole()));
                        again = true;
                    }
                }
            }
        }
        if (moved.isEmpty()) {
            return false;
        }
        for (int b = loop.nextSetBit(0); b >= 0; b = loop.nextSetBit(b + 1)) {
            body.block(b).instrs().removeIf(moving::contains);
        }
        List<Instr> at = pre.instrs();
        Instr last = pre.last();
        at.addAll(last != null && last.isTerminator() ? at.size() - 1 : at.size(), moved);
        return true;
    }

    /**
     * Whether the destinations, live across the whole loop once moved, keep every point of it within their file's
     * size; if so the pressure records them. A destination adds to the points where it is not live yet: a value
     * computed at the loop's top and read at its bottom costs a register only between its last read and the top.
     */
    private static boolean fits(Instr in, FunctionBody body, BitSet loop, Pressure lazy) {
        RegisterPressure pressure = lazy.estimate();
        for (int pass = 0; pass < 2; pass++) {
            for (Reg d : in.dsts()) {
                if (d.isZero()) {
                    continue;
                }
                RegFile f = d.file();
                int w = d.whole().comps();
                for (int b = loop.nextSetBit(0); b >= 0; b = loop.nextSetBit(b + 1)) {
                    List<Instr> instrs = body.block(b).instrs();
                    boolean live = pressure.liveness().liveOut(b, d.whole());
                    for (int i = instrs.size(); i >= 0; i--) {
                        if (i < instrs.size()) {
                            Instr x = instrs.get(i);
                            if (x == in) {
                                live = false;
                            } else if (Rewrites.reads(x, d)) {
                                live = true;
                            }
                        }
                        if (!live) {
                            if (pass == 0 && pressure.at(b, i, f) + w > f.count()) {
                                return false;
                            }
                            if (pass == 1) {
                                pressure.add(b, i, f, w);
                            }
                        }
                    }
                }
            }
        }
        return true;
    }

    /**
     * Reads a register or a constant-bank word: a predicate made from literals alone (PLOP3 of PT) costs as much
     * to set in the loop as to hold across it.
     */
    private static boolean worthMoving(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof Reg r && !r.isZero() || s.value() instanceof CBank) {
                return true;
            }
        }
        return false;
    }

    private static boolean invariant(Instr in, Set<Reg> written, SingleDefs sd) {
        if (!in.guard().isAlways() || in.dsts().isEmpty() || !OpInfo.isRepeatable(in) || OpInfo.is(in, "S2R")
                || OpInfo.is(in, "CS2R") || OpInfo.is(in, "S2UR")) {
            return false;
        }
        if (!worthMoving(in)) {
            return false;
        }
        for (Reg d : in.dsts()) {
            if (d.isZero()) {
                continue;
            }
            if (!d.file().isPredicate()) {
                return false;
            }
            // the register's only write, of the whole register (a part written here and a part elsewhere would
            // split the value between the preheader and the loop)
            if (!d.virtual() || d.isPart() || sd.soleDef(d) != in) {
                return false;
            }
        }
        for (Reg u : in.usedRegs()) {
            if (!u.isZero() && written.contains(u.whole())) {
                return false;
            }
        }
        return true;
    }
}
