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
 * loop keeps its live predicates within the file's seven registers, so moving it adds no predicate spill, except
 * for compares read only by joins, below.
 * <p>
 * A compare read only by joins ({@code and.pred}/{@code or.pred}) with compares the loop recomputes is the one case
 * where ptxas's choice does not follow the pressure (checked on small sm_90 kernels: an invariant setp and'ed with
 * a per-iteration 64- or 32-bit bounds compare that also guards a load). When each such partner compare is read
 * otherwise only as the guard of memory instructions, ptxas repeats the partner at the join, chained to the
 * invariant compare, and moves the invariant compare out of the loop whatever the pressure (Triton v3.3.0's
 * flash-attention loop, whose moved predicate ptxas spills into a register's bits). When a partner is also read by
 * anything else (a guarded copy {@code @!p mov}, an arithmetic guard, a {@code selp}), ptxas keeps the partner as
 * a predicate and repeats the invariant compare at each join instead, so it stays however low the pressure is
 * (Triton v3.2.0's loop, whose partners guard four copies each).
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
                    if (moving.contains(in) || !invariant(in, written, sd)) {
                        continue;
                    }
                    JoinedWith partners = joinedWith(in, loop, written, sd);
                    if (partners != JoinedWith.KEPT_COMPARES
                            && fits(in, body, loop, pressure, partners == JoinedWith.REPEATED_COMPARES)) {
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
     * size (or, {@code regardless}, without asking); if so the pressure records them. A destination adds to the
     * points where it is not live yet: a value computed at the loop's top and read at its bottom costs a register
     * only between its last read and the top.
     */
    private static boolean fits(Instr in, FunctionBody body, BitSet loop, Pressure lazy, boolean regardless) {
        RegisterPressure pressure = lazy.estimate();
        for (int pass = regardless ? 1 : 0; pass < 2; pass++) {
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

    /** What an invariant compare is joined with, deciding whether ptxas moves it (see the class comment). */
    private enum JoinedWith {
        /** Read by something other than a join of it and a compare the loop recomputes: the pressure decides. */
        OTHER,
        /** Only joins, each partner read otherwise only as memory instructions' guard: moves regardless. */
        REPEATED_COMPARES,
        /** Only joins, a partner also read by other instructions: stays, repeated at each join. */
        KEPT_COMPARES
    }

    private static JoinedWith joinedWith(Instr in, BitSet loop, Set<Reg> written, SingleDefs sd) {
        if (in.dsts().size() != 2 || !in.dsts().get(1).equals(Reg.PT) || !isCompare(in)) {
            return JoinedWith.OTHER;
        }
        Reg p = in.dsts().get(0);
        List<Instr> readers = sd.uses(p);
        if (readers.isEmpty()) {
            return JoinedWith.OTHER;
        }
        boolean kept = false;
        for (Instr join : readers) {
            if (!CompareChaining.isJoin(join)) {
                return JoinedWith.OTHER;
            }
            Reg a = (Reg) join.srcs().get(0).value();
            Reg b = (Reg) join.srcs().get(1).value();
            if (a.equals(b)) {
                return JoinedWith.OTHER;
            }
            Reg partner = a.equals(p) ? b : a;
            Instr def = sd.soleDef(partner);
            if (def == null || !isCompare(def) || !recomputed(def, written) || !inLoop(def, loop, sd)) {
                return JoinedWith.OTHER;
            }
            for (Instr r : sd.uses(partner)) {
                if (!CompareChaining.isJoin(r) && !guardsMemoryOnly(r, partner, sd)) {
                    kept = true;
                }
            }
        }
        return kept ? JoinedWith.KEPT_COMPARES : JoinedWith.REPEATED_COMPARES;
    }

    private static boolean isCompare(Instr in) {
        return OpInfo.is(in, "ISETP") || OpInfo.is(in, "FSETP") || OpInfo.is(in, "DSETP");
    }

    /** Whether {@code def} reads a register the loop writes (so it stays in the loop). */
    private static boolean recomputed(Instr def, Set<Reg> written) {
        for (Reg u : def.usedRegs()) {
            if (!u.isZero() && written.contains(u.whole())) {
                return true;
            }
        }
        return false;
    }

    private static boolean inLoop(Instr def, BitSet loop, SingleDefs sd) {
        SingleDefs.Position at = sd.position(def);
        return at != null && loop.get(at.block());
    }

    /**
     * Whether {@code r} reads {@code p} only as the guard of a load, store or atomic, or of a copy of such a load's
     * result under the same guard (a guarded vector load's lowering: the load into a temporary, then its parts).
     */
    private static boolean guardsMemoryOnly(Instr r, Reg p, SingleDefs sd) {
        if (r.guard().isAlways() || !r.guard().predicate().sameRegister(p)) {
            return false;
        }
        if (!AddressModeFolding.accessesMemory(r) && !copiesGuardedLoad(r, sd)) {
            return false;
        }
        for (Src s : r.srcs()) {
            if (s.value() instanceof Reg x && x.sameRegister(p)) {
                return false;
            }
        }
        return true;
    }

    private static boolean copiesGuardedLoad(Instr copy, SingleDefs sd) {
        if (!OpInfo.is(copy, "MOV") || copy.srcs().size() != 1 || !(copy.srcs().get(0).value() instanceof Reg s)
                || !s.virtual()) {
            return false;
        }
        List<Instr> loads = sd.defs(s.whole());
        for (Instr load : loads) {
            if (!AddressModeFolding.accessesMemory(load) || !load.guard().equals(copy.guard())) {
                return false;
            }
        }
        return !loads.isEmpty();
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
