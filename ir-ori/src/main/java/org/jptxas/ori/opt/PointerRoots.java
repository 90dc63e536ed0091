package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Which local variable each frame pointer of {@link LocalArrayPromotion} points into. Each root
 * ({@code IADD3 r, SP, imm, RZ}) is the address of a {@code .local} variable (nvcc's {@code mov.u64 %rd15,
 * __cuda_result_3216464} or {@code add.u64 %rd1, %SPL, 28}); a pointer computed from one root only stays inside
 * that variable, which ends where the next root's starts. A computed access through it then compares for that
 * variable's words only: mri-q's two 7-word sinf/cosf arrays are two chains of seven, as ptxas 13 keeps them, not
 * fourteen each.
 */
final class PointerRoots {
    private final Map<Reg, Set<Long>> from;
    private final TreeSet<Long> starts;
    private final long frameEnd;

    private PointerRoots(Map<Reg, Set<Long>> from, TreeSet<Long> starts, long frameEnd) {
        this.from = from;
        this.starts = starts;
        this.frameEnd = frameEnd;
    }

    static PointerRoots of(FunctionBody body, PointerTaint taint, long frameEnd) {
        Map<Reg, Set<Long>> from = new HashMap<>();
        TreeSet<Long> starts = new TreeSet<>();
        List<Instr> arithmetic = new ArrayList<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (taint.isRoot(in)) {
                    Long imm = OpInfo.const32(in.srcs().get(1));
                    long start = imm == null ? -1 : (long) (int) (long) imm;
                    starts.add(start);
                    from.computeIfAbsent(in.dsts().get(0), k -> new HashSet<>()).add(start);
                } else if (OpInfo.is(in, "IADD3") || OpInfo.is(in, "MOV")) {
                    arithmetic.add(in);
                }
            }
        }
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Instr in : arithmetic) {
                Set<Long> read = new HashSet<>();
                for (Src s : in.srcs()) {
                    if (s.value() instanceof Reg r && from.containsKey(r)) {
                        read.addAll(from.get(r));
                    }
                }
                if (!read.isEmpty()) {
                    for (Reg d : in.dsts()) {
                        if (taint.tainted().contains(d)) {
                            grew |= from.computeIfAbsent(d, k -> new HashSet<>()).addAll(read);
                        }
                    }
                }
            }
        }
        return new PointerRoots(from, starts, frameEnd);
    }

    /** The bytes {from, to} a pointer in {@code base} may reach: its variable's, or the whole frame. */
    long[] reach(Reg base) {
        Set<Long> roots = from.get(base);
        if (roots == null || roots.size() != 1 || roots.iterator().next() < 0) {
            return new long[] {0, frameEnd};
        }
        long start = roots.iterator().next();
        Long next = starts.higher(start);
        return new long[] {start, next == null ? frameEnd : Math.min(next, frameEnd)};
    }
}
