package org.jptxas.ori.opt;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.VirtualNumbering;

/**
 * Dead-code elimination by marking: instructions with effects beyond their destinations (memory, atomics,
 * barriers, control, writes of physical registers) in reachable blocks are live, and so is every definition of a
 * register a live instruction reads; the rest of the side-effect-free instructions go, dead cycles included.
 * The last block keeps its terminator so the function still ends.
 */
public final class DeadCodeElimination implements Pass {
    /** Liveness slots per register: the whole ({@code part} -1) and one per part of the widest tuple. */
    private static final int SLOTS = Reg.MAX_COMPS + 1;

    @Override
    public String name() {
        return "dce";
    }

    /**
     * Instructions are numbered in body order; liveness is a BitSet over those numbers and each register's
     * definitions an array of them (identity maps of instructions were most of this pass's time).
     */
    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        Cfg cfg = Cfg.of(body);
        VirtualNumbering numbers = new VirtualNumbering(body);
        List<BasicBlock> blocks = body.blocks();
        int count = body.instructionCount();
        Instr[] all = new Instr[count];
        // the virtual registers any instruction reads, gathered by the same backward walk that finds the overwritten
        // writes: one walk of the body fewer per run
        BitSet read = new BitSet(numbers.size());
        BitSet overwritten = overwrittenUnread(blocks, numbers, count, read);
        // per register number, its defining instructions (numbers), as linked lists threaded through arrays
        int[] firstDef = new int[numbers.size()];
        java.util.Arrays.fill(firstDef, -1);
        int[] defNext = new int[4 * count + 4];
        int[] defInstr = new int[defNext.length];
        int[] defPart = new int[defNext.length];
        int defs = 0;
        BitSet live = new BitSet(count);
        int[] work = new int[count];
        int top = 0;
        int id = 0;
        boolean unreadPredicates = false;
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            List<Instr> instrs = b.instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                all[id] = in;
                List<Reg> dsts = in.dsts();
                for (int di = 0; di < dsts.size(); di++) {
                    Reg d = dsts.get(di);
                    if (d.virtual() && !overwritten.get(id)) {
                        int k = numbers.of(d);
                        if (defs == defNext.length) {
                            defNext = java.util.Arrays.copyOf(defNext, 2 * defs);
                            defInstr = java.util.Arrays.copyOf(defInstr, 2 * defs);
                            defPart = java.util.Arrays.copyOf(defPart, 2 * defs);
                        }
                        defInstr[defs] = id;
                        defPart[defs] = d.part();
                        defNext[defs] = firstDef[k];
                        firstDef[k] = defs++;
                    }
                }
                boolean root = !OpInfo.isPure(in) && cfg.isReachable(b.id()) || writesPhysical(in)
                        || b.id() == blocks.size() - 1 && in == b.last() && in.isTerminator();
                if (root) {
                    live.set(id);
                    work[top++] = id;
                }
                unreadPredicates |= unreadPredicatesToPT(dsts, read, numbers);
                id++;
            }
        }
        // every definition of a register read by a live instruction is live: each register's definitions are
        // marked once (re-scanning them at every read was quadratic in code that reuses few registers). A read of
        // one part of a tuple needs only the writes of that part or of the whole: a 64-bit address whose high half
        // nothing reads (a local address, 32 bits wide) loses its IADD3.X chain.
        BitSet expanded = new BitSet(SLOTS * numbers.size());
        while (top > 0) {
            List<Reg> used = all[work[--top]].usedRegs();
            for (int u = 0; u < used.size(); u++) {
                Reg r = used.get(u);
                if (!r.virtual()) {
                    continue;
                }
                int k = numbers.of(r);
                int slot = SLOTS * k + r.part() + 1;
                if (firstDef[k] < 0 || expanded.get(SLOTS * k) || expanded.get(slot)) {
                    continue;
                }
                expanded.set(slot);
                for (int e = firstDef[k]; e >= 0; e = defNext[e]) {
                    int d = defInstr[e];
                    if (r.isPart() && defPart[e] != Reg.WHOLE && defPart[e] != r.part()) {
                        continue;
                    }
                    if (!live.get(d)) {
                        live.set(d);
                        work[top++] = d;
                    }
                }
            }
        }
        if (live.cardinality() == count) {
            return unreadPredicates;
        }
        // the live instructions move up in place and the dead tail goes: no copy of each block
        id = 0;
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            int kept = 0;
            for (int ii = 0; ii < instrs.size(); ii++) {
                if (live.get(id++)) {
                    instrs.set(kept++, instrs.get(ii));
                }
            }
            if (kept != instrs.size()) {
                instrs.subList(kept, instrs.size()).clear();
            }
        }
        return true;
    }

    /**
     * The pure, unguarded writes of a whole scalar register that a later unguarded write in the same block replaces
     * before anything reads it (a fragment copied out of each MMA's result into the same PTX registers, read only
     * after the last one). Left out of the register's definitions, they are dead whatever reads the register later.
     */
    private static BitSet overwrittenUnread(List<BasicBlock> blocks, VirtualNumbering numbers, int count,
                                            BitSet read) {
        BitSet dead = new BitSet(count);
        // Per register number, the block (plus one) in which a later unguarded write replaces it, 0 once read: a
        // function-wide set cleared at every block cost time in blocks times registers on large kernels.
        int[] replacedIn = new int[numbers.size()];
        int end = 0;
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            int stamp = bi + 1;
            end += instrs.size();
            for (int i = instrs.size() - 1; i >= 0; i--) {
                Instr in = instrs.get(i);
                // a compare's second result written to PT (ISETP p, PT, ...) leaves p its only destination: each
                // unrolled copy's exit compare is replaced by the next copy's before anything reads it
                Reg only = in.dsts().size() == 1 || !in.dsts().isEmpty() && OpInfo.extraDstsAreSinks(in)
                        ? in.dsts().get(0) : null;
                int k = only != null && only.virtual() && !only.isPart() && only.comps() == 1 ? numbers.of(only) : -1;
                List<Reg> used = in.usedRegs();
                if (k >= 0 && replacedIn[k] == stamp && in.guard().isAlways() && OpInfo.isPure(in)) {
                    dead.set(end - instrs.size() + i);
                    markRead(used, read, numbers);
                    continue; // reads nothing that matters to the replaced writes
                }
                if (k >= 0 && in.guard().isAlways()) {
                    replacedIn[k] = stamp;
                }
                for (int ui = 0; ui < used.size(); ui++) {
                    int u = numbers.of(used.get(ui));
                    if (u >= 0) {
                        replacedIn[u] = 0;
                        read.set(u);
                    }
                }
            }
        }
        return dead;
    }

    private static void markRead(List<Reg> used, BitSet read, VirtualNumbering numbers) {
        for (int ui = 0; ui < used.size(); ui++) {
            int u = numbers.of(used.get(ui));
            if (u >= 0) {
                read.set(u);
            }
        }
    }

    /**
     * A predicate no instruction reads is written to PT instead (a shuffle's in-range flag, a compare's second
     * result), as ptxas does: the instructions writing it then no longer depend on each other through it.
     */
    private static boolean unreadPredicatesToPT(List<Reg> dsts, BitSet read, VirtualNumbering numbers) {
        boolean changed = false;
        for (int i = 0; i < dsts.size(); i++) {
            Reg d = dsts.get(i);
            if (d.virtual() && d.file() == RegFile.P && numbers.of(d) >= 0 && !read.get(numbers.of(d))) {
                dsts.set(i, Reg.PT);
                changed = true;
            }
        }
        return changed;
    }

    /** A device function's write of a register its body never reads: possibly a result, live at RET. */
    private static boolean writesPhysical(Instr in) {
        List<Reg> dsts = in.dsts();
        for (int i = 0; i < dsts.size(); i++) { // indexed: C1 allocates a for-each's iterator
            Reg d = dsts.get(i);
            if (!d.virtual() && !d.isZero()) {
                return true;
            }
        }
        return false;
    }
}
