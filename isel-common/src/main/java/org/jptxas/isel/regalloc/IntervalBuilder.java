package org.jptxas.isel.regalloc;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.analysis.Liveness;
import org.jptxas.ori.analysis.LoopNesting;
import org.jptxas.ori.analysis.MaybeDefined;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/**
 * Builds the live intervals of every virtual register of a body from block liveness (Wimmer and Franz's backward
 * walk), restricted to where some definition may have reached: before its first definition a register holds
 * nothing worth keeping. Also weighs each register by its occurrences, ten times more per loop level.
 */
final class IntervalBuilder {
    private static final double[] LOOP_WEIGHT = {1, 10, 100, 1000, 10000, 100000};

    private IntervalBuilder() {}

    /** Intervals indexed by {@link Liveness#key}; null for keys never mentioned. */
    static LiveInterval[] build(FunctionBody body, ValueTable values) {
        return build(body, values, true);
    }

    /** {@code narrowed} false: maybe-defined sets over every register (the reference the narrowing must equal). */
    static LiveInterval[] build(FunctionBody body, ValueTable values, boolean narrowed) {
        Cfg cfg = Cfg.of(body);
        Liveness live = new Liveness(body, cfg);
        LoopNesting loops = new LoopNesting(cfg, new Dominators(cfg));
        int width = values.size();
        int[] results = java.util.stream.IntStream.range(0, width)
                .filter(k -> values.mentioned(k) && values.returned(k)).toArray();
        // Only a register live at the entry can be live in a reachable block no definition of it has reached:
        // otherwise a definition-free path from the entry to that block, then on to a use, would make it live at the
        // entry. So the maybe-defined sets (blocks times registers: costly on large kernels) are needed for those
        // registers alone, plus the two kinds the walk below keeps live where liveness does not: results (live at a
        // RET) and tuples the walk keeps live up to a reachable block's start that liveness does not (a part read
        // back after its own write, the write that completes the tuple coming later; undefinedAtStart finds them).
        // Every other register live in a reachable block counts as defined there. Unreachable blocks see no
        // definition but their own writes (the data flow never reaches them), for every part-written tuple too.
        BitSet undefinedCandidates = body.blocks().isEmpty() ? new BitSet() : live.liveInSet(0);
        if (!narrowed) {
            undefinedCandidates.set(0, width);
        }
        for (int k : results) {
            undefinedCandidates.set(k);
        }
        BitSet partWritten = live.partWrittenSet();
        PartWalk walk = new PartWalk(live, width);
        List<BasicBlock> blockList = body.blocks();
        for (int b = 0; b < blockList.size(); b++) {
            BasicBlock block = blockList.get(b);
            if (cfg.isReachable(block.id())) {
                walk.block(block, undefinedCandidates);
            }
        }
        // what an unreachable block's end treats as undefined unless the block writes it
        BitSet undefinedWhereUnreachable = (BitSet) undefinedCandidates.clone();
        undefinedWhereUnreachable.or(partWritten);
        MaybeDefined defined = new MaybeDefined(body, cfg, live, values.definedAtEntry(),
                narrowed ? undefinedCandidates : null);
        LiveInterval[] intervals = new LiveInterval[width];
        for (int k = 0; k < width; k++) {
            if (values.mentioned(k)) {
                intervals[k] = new LiveInterval(k, values.file(k), values.comps(k), values.fixed(k));
                intervals[k].spillable = values.spillable(k);
            }
        }
        List<BasicBlock> blocks = body.blocks();
        int[] firstPos = new int[blocks.size() + 1];
        for (int b = 0; b < blocks.size(); b++) {
            firstPos[b + 1] = firstPos[b] + 2 * blocks.get(b).instrs().size();
        }
        BitSet undefinedAtEnd = new BitSet();
        int[] firstDef = new int[width];
        // Per tuple: the parts that later instructions of the current block write before any read (walking back).
        int[] partsWritten = new int[width];
        BitSet liveNow = new BitSet(width);
        for (int b = blocks.size() - 1; b >= 0; b--) {
            BasicBlock block = blocks.get(b);
            int blockFrom = firstPos[b];
            int blockTo = firstPos[b + 1];
            double w = LOOP_WEIGHT[Math.min(loops.depth(b), LOOP_WEIGHT.length - 1)];
            live.liveOutInto(b, liveNow);
            undefinedAtEnd.clear();
            if (cfg.isReachable(b) && narrowed) {
                // the universe of the narrowed sets is undefinedCandidates: its members not defined here
                defined.addUndefinedAtEnd(b, undefinedAtEnd);
            } else if (cfg.isReachable(b)) {
                undefinedAtEnd.or(undefinedCandidates);
                defined.removeDefinedAtEnd(b, undefinedAtEnd);
            } else {
                undefinedAtEnd.or(undefinedWhereUnreachable);
                List<Instr> instrs = block.instrs();
                for (int i = 0; i < instrs.size(); i++) {
                    List<Reg> dsts = instrs.get(i).dsts();
                    for (int j = 0; j < dsts.size(); j++) {
                        Reg r = dsts.get(j);
                        if (r.virtual()) {
                            undefinedAtEnd.clear(live.key(r));
                        }
                    }
                }
            }
            liveNow.andNot(undefinedAtEnd);
            for (int k = liveNow.nextSetBit(0); k >= 0; k = liveNow.nextSetBit(k + 1)) {
                intervals[k].addRange(blockFrom, blockTo);
            }
            List<Instr> instrs = block.instrs();
            for (int i = instrs.size() - 1; i >= 0; i--) {
                Instr in = instrs.get(i);
                int pos = blockFrom + 2 * i;
                boolean unguarded = in.guard().isAlways();
                if (results.length > 0 && in.op().name().equals("RET")) {
                    // A device function's results: the precoloured registers it writes are read by its caller.
                    for (int k : results) {
                        if (!liveNow.get(k)) {
                            intervals[k].addRange(blockFrom, pos + 1);
                            liveNow.set(k);
                        }
                    }
                }
                List<Reg> dsts = in.dsts();
                for (int j = 0; j < dsts.size(); j++) {
                    Reg r = dsts.get(j);
                    if (!r.virtual()) {
                        continue;
                    }
                    int k = live.key(r);
                    LiveInterval iv = intervals[k];
                    iv.weight += w;
                    iv.defs++;
                    iv.rematDef = iv.defs == 1 && unguarded && !r.isPart() && rematerializable(in) ? in : null;
                    if (liveNow.get(k)) {
                        // A guarded write keeps the old value; so does a write of one part, unless the later
                        // instructions of this block write every other part before anything reads the old one.
                        boolean kills = unguarded && !r.isPart();
                        if (unguarded && r.isPart()) {
                            partsWritten[k] |= 1 << r.part();
                            kills = live.allPartsWritten(k, partsWritten[k], r.comps());
                        }
                        if (kills) {
                            iv.setFrom(pos + 1);
                            liveNow.clear(k);
                            partsWritten[k] = 0;
                        }
                    } else {
                        iv.addRange(pos + 1, pos + 2);
                    }
                }
                List<Reg> used = in.usedRegs();
                for (int j = 0; j < used.size(); j++) {
                    Reg r = used.get(j);
                    if (!r.virtual()) {
                        continue;
                    }
                    int k = live.key(r);
                    LiveInterval iv = intervals[k];
                    iv.weight += w;
                    if (!liveNow.get(k)) {
                        iv.addRange(blockFrom, pos + 1);
                        liveNow.set(k);
                    }
                    partsWritten[k] &= r.isPart() ? ~(1 << r.part()) : 0;
                }
            }
            for (int k = liveNow.nextSetBit(0); k >= 0; k = liveNow.nextSetBit(k + 1)) {
                partsWritten[k] = 0;
            }
            // Live at the block start but never defined on the way here: nothing to keep until the first def.
            if (cfg.isReachable(b)) {
                liveNow.and(undefinedCandidates);
            }
            defined.removeDefinedAtStart(b, liveNow);
            if (!liveNow.isEmpty()) {
                for (int k = liveNow.nextSetBit(0); k >= 0; k = liveNow.nextSetBit(k + 1)) {
                    firstDef[k] = blockTo;
                }
                for (int i = instrs.size() - 1; i >= 0; i--) {
                    List<Reg> dsts = instrs.get(i).dsts();
                    for (int j = 0; j < dsts.size(); j++) {
                        Reg r = dsts.get(j);
                        if (r.virtual() && liveNow.get(live.key(r))) {
                            firstDef[live.key(r)] = blockFrom + 2 * i + 1;
                        }
                    }
                }
                for (int k = liveNow.nextSetBit(0); k >= 0; k = liveNow.nextSetBit(k + 1)) {
                    intervals[k].cutBelow(blockFrom, firstDef[k]);
                }
            }
        }
        for (LiveInterval iv : intervals) {
            if (iv != null) {
                iv.finish();
                if (iv.defs != 1 || iv.fixed >= 0) {
                    iv.rematDef = null;
                }
            }
        }
        return intervals;
    }

    /**
     * The walk's liveness of the tuples a block reads back after writing a part of them ({@link
     * Liveness#readBackAfterPartWrite}), replayed from the block's end (where the walk starts from liveness for any
     * tuple not live at the entry) with the walk's own rules: a part write kills once the later writes cover every
     * part no read in between needs, a read revives. A tuple still live at a reachable block's start that liveness
     * does not have live-in there is one whose maybe-defined state the walk asks for.
     */
    private static final class PartWalk {
        private final Liveness live;
        // sets sized for the function's width at once: grown key by key, they were most of this walk's time
        private final BitSet readBack;
        private final BitSet alive;
        private final int[] parts;

        PartWalk(Liveness live, int width) {
            this.live = live;
            this.parts = new int[width];
            this.readBack = new BitSet(width);
            this.alive = new BitSet(width);
        }

        /** For a reachable block {@code b}. */
        void block(BasicBlock b, BitSet undefinedCandidates) {
            int[] keys = live.readBackAfterPartWrite(b.id());
            int keyCount = keys.length;
            if (keyCount == 0) {
                return;
            }
            readBack.clear();
            for (int i = 0; i < keyCount; i++) {
                readBack.set(keys[i]);
            }
            List<Instr> instrs = b.instrs();
            alive.clear();
            for (int i = 0; i < keyCount; i++) {
                int k = keys[i];
                if (live.liveOutKey(b.id(), k)) {
                    alive.set(k);
                }
                parts[k] = 0;
            }
            for (int i = instrs.size() - 1; i >= 0; i--) {
                Instr in = instrs.get(i);
                boolean unguarded = in.guard().isAlways();
                List<Reg> dsts = in.dsts();
                for (int j = 0; j < dsts.size(); j++) {
                    Reg r = dsts.get(j);
                    int k = r.virtual() ? live.key(r) : -1;
                    if (k < 0 || !readBack.get(k) || !alive.get(k)) {
                        continue;
                    }
                    boolean kills = unguarded && !r.isPart();
                    if (unguarded && r.isPart()) {
                        parts[k] |= 1 << r.part();
                        kills = live.allPartsWritten(k, parts[k], r.comps());
                    }
                    if (kills) {
                        alive.clear(k);
                        parts[k] = 0;
                    }
                }
                List<Reg> used = in.usedRegs();
                for (int j = 0; j < used.size(); j++) {
                    Reg r = used.get(j);
                    int k = r.virtual() ? live.key(r) : -1;
                    if (k < 0 || !readBack.get(k)) {
                        continue;
                    }
                    alive.set(k);
                    parts[k] &= r.isPart() ? ~(1 << r.part()) : 0;
                }
            }
            for (int i = 0; i < keyCount; i++) {
                int k = keys[i];
                if (alive.get(k) && !live.liveInKey(b.id(), k)) {
                    undefinedCandidates.set(k);
                }
                parts[k] = 0;
            }
        }
    }

    /**
     * A copy of a constant into one register ({@code MOV}/{@code UMOV} of an immediate or an unindexed constant-bank
     * word), or a 64-bit parameter loaded whole ({@code LDC.64}): cheaper to repeat before each use than to spill
     * and reload, the constant bank being read-only while the kernel runs.
     */
    static boolean rematerializable(Instr in) {
        if (in.dsts().size() != 1 || in.srcs().isEmpty()) {
            return false;
        }
        String op = in.op().name();
        if (op.equals("LDC") && in.mods().equals(List.of("64")) && in.srcs().size() == 1) {
            return in.srcs().get(0).value() instanceof org.jptxas.ori.ir.CBank c && c.index() == null
                    && !in.srcs().get(0).hasModifiers() && in.dsts().get(0).comps() == 2 && !in.dsts().get(0).isPart();
        }
        if (!in.mods().isEmpty()) {
            return false;
        }
        if (!op.equals("MOV") && !op.equals("UMOV")) {
            return false;
        }
        Object v = in.srcs().get(0).value();
        boolean constant = v instanceof org.jptxas.ori.ir.Imm
                || v instanceof org.jptxas.ori.ir.CBank c && c.index() == null;
        return constant && in.dsts().get(0).comps() == 1 && !in.srcs().get(0).hasModifiers()
                && (in.srcs().size() == 1 || in.srcs().get(1).value() instanceof org.jptxas.ori.ir.Imm);
    }
}
