package org.jptxas.ori.opt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.VirtualNumbering;

/**
 * Dead-code elimination by marking: instructions with effects beyond their destinations (memory, atomics,
 * barriers, control, writes of physical registers) in reachable blocks are live, and so is every definition of a
 * register a live instruction reads; the rest of the side-effect-free instructions go, dead cycles included.
 * The last block keeps its terminator so the function still ends.
 */
public final class DeadCodeElimination implements Pass {
    @Override
    public String name() {
        return "dce";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        Cfg cfg = Cfg.of(body);
        VirtualNumbering numbers = new VirtualNumbering(body);
        List<List<Instr>> defs = new ArrayList<>(java.util.Collections.nCopies(numbers.size(), null));
        Map<Instr, Boolean> live = new IdentityHashMap<>();
        Deque<Instr> work = new ArrayDeque<>();
        List<BasicBlock> blocks = body.blocks();
        BitSet read = new BitSet(numbers.size());
        if (!cx.entry()) {
            for (BasicBlock b : blocks) {
                for (Instr in : b.instrs()) {
                    for (Reg r : in.usedRegs()) {
                        if (r.virtual()) {
                            read.set(numbers.of(r));
                        }
                    }
                }
            }
        }
        for (BasicBlock b : blocks) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    if (d.virtual()) {
                        int k = numbers.of(d);
                        if (defs.get(k) == null) {
                            defs.set(k, new ArrayList<>(1));
                        }
                        defs.get(k).add(in);
                    }
                }
                boolean root = !OpInfo.isPure(in) && cfg.isReachable(b.id()) || writesPhysical(in)
                        || !cx.entry() && writesUnread(in, read, numbers)
                        || b.id() == blocks.size() - 1 && in == b.last() && in.isTerminator();
                if (root) {
                    live.put(in, true);
                    work.add(in);
                }
            }
        }
        // every definition of a register read by a live instruction is live: each register's definitions are
        // marked once (re-scanning them at every read was quadratic in code that reuses few registers)
        BitSet expanded = new BitSet(numbers.size());
        while (!work.isEmpty()) {
            Instr in = work.poll();
            for (Reg r : in.usedRegs()) {
                if (!r.virtual() || defs.get(numbers.of(r)) == null || expanded.get(numbers.of(r))) {
                    continue;
                }
                expanded.set(numbers.of(r));
                for (Instr d : defs.get(numbers.of(r))) {
                    if (live.putIfAbsent(d, true) == null) {
                        work.add(d);
                    }
                }
            }
        }
        boolean changed = false;
        for (BasicBlock b : blocks) {
            changed |= b.instrs().removeIf(in -> !live.containsKey(in));
        }
        return changed;
    }

    /** A device function's write of a register its body never reads: possibly a result, live at RET. */
    private static boolean writesUnread(Instr in, BitSet read, VirtualNumbering numbers) {
        for (Reg d : in.dsts()) {
            if (d.virtual() && !read.get(numbers.of(d))) {
                return true;
            }
        }
        return false;
    }

    private static boolean writesPhysical(Instr in) {
        for (Reg d : in.dsts()) {
            if (!d.virtual() && !d.isZero()) {
                return true;
            }
        }
        return false;
    }
}
