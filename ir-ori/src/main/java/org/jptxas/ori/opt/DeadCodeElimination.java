package org.jptxas.ori.opt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Dead-code elimination by marking: instructions with effects beyond their destinations (memory, atomics,
 * barriers, control, writes of physical registers) in reachable blocks are live, and so is every definition of a
 * register a live instruction reads; the rest of the side-effect-free instructions go, dead cycles included.
 * The last block keeps its terminator so the function still ends.
 */
public final class DeadCodeElimination implements Pass {
    private record Key(RegFile file, int id) {}

    @Override
    public String name() {
        return "dce";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        Cfg cfg = Cfg.of(body);
        Map<Key, List<Instr>> defs = new HashMap<>();
        Map<Instr, Boolean> live = new IdentityHashMap<>();
        Deque<Instr> work = new ArrayDeque<>();
        List<BasicBlock> blocks = body.blocks();
        java.util.Set<Key> read = new java.util.HashSet<>();
        if (!cx.entry()) {
            for (BasicBlock b : blocks) {
                for (Instr in : b.instrs()) {
                    for (Reg r : in.usedRegs()) {
                        read.add(new Key(r.file(), r.index()));
                    }
                }
            }
        }
        for (BasicBlock b : blocks) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    if (d.virtual()) {
                        defs.computeIfAbsent(new Key(d.file(), d.index()), k -> new ArrayList<>()).add(in);
                    }
                }
                boolean root = !OpInfo.isPure(in) && cfg.isReachable(b.id()) || writesPhysical(in)
                        || !cx.entry() && writesUnread(in, read)
                        || b.id() == blocks.size() - 1 && in == b.last() && in.isTerminator();
                if (root) {
                    live.put(in, true);
                    work.add(in);
                }
            }
        }
        while (!work.isEmpty()) {
            Instr in = work.poll();
            for (Reg r : in.usedRegs()) {
                if (!r.virtual()) {
                    continue;
                }
                for (Instr d : defs.getOrDefault(new Key(r.file(), r.index()), List.of())) {
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
    private static boolean writesUnread(Instr in, java.util.Set<Key> read) {
        for (Reg d : in.dsts()) {
            if (d.virtual() && !read.contains(new Key(d.file(), d.index()))) {
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
