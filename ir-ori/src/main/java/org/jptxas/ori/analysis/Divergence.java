package org.jptxas.ori.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;

/**
 * Which values may differ between the threads of a warp, and which conditional branches may therefore split it.
 *
 * <p>Sources of divergence: per-thread special registers ({@code %tid}, {@code %laneid}, lane masks, clocks; not
 * {@code %ctaid}), memory reads and atomics, warp exchanges ({@code SHFL}, {@code VOTE}, {@code MATCH}) and
 * registers the function reads before writing (device-function arguments). Kernel parameters, constants and
 * uniform-datapath registers (UR, UP) are uniform. A result is divergent when any register it reads (the guard
 * included) is; and a register written inside the region of a divergent branch (the blocks between the branch and
 * its immediate post-dominator) and read outside it is divergent too, since threads left the region at different
 * times or not at all. Solved optimistically to a fixed point, so loop-carried uniform values stay uniform.
 */
public final class Divergence {
    private final Set<Long> divergent = new HashSet<>();
    private final BitSet divergentBranches = new BitSet();

    public Divergence(FunctionBody body, Cfg cfg, PostDominators pdom) {
        int n = cfg.size();
        Map<Long, BitSet> useBlocks = new HashMap<>();
        Set<Long> written = new HashSet<>();
        List<Set<Long>> defsInBlock = new ArrayList<>();
        for (BasicBlock b : body.blocks()) {
            Set<Long> defined = new HashSet<>();
            defsInBlock.add(defined);
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    for (long k : keys(r)) {
                        useBlocks.computeIfAbsent(k, x -> new BitSet()).set(b.id());
                    }
                }
                for (Reg r : in.dsts()) {
                    for (long k : keys(r)) {
                        written.add(k);
                        defined.add(k);
                    }
                }
            }
        }
        for (Long used : useBlocks.keySet()) {
            if (!written.contains(used)) {
                divergent.add(used);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (BasicBlock b : body.blocks()) {
                for (Instr in : b.instrs()) {
                    if (in.dsts().isEmpty() || !producesDivergence(in)) {
                        continue;
                    }
                    for (Reg d : in.dsts()) {
                        if (d.file() == RegFile.UR || d.file() == RegFile.UP || d.isZero()) {
                            continue;
                        }
                        for (long k : keys(d)) {
                            changed |= divergent.add(k);
                        }
                    }
                }
            }
            for (int b = 0; b < n; b++) {
                if (divergentBranches.get(b) || !cfg.isReachable(b) || !branchesOnDivergentGuard(body.block(b))) {
                    continue;
                }
                divergentBranches.set(b);
                changed = true;
                // values written inside the region (found from its blocks, not by scanning every value) and read
                // outside it
                BitSet region = region(cfg, b, pdom.ipdom(b));
                for (int r = region.nextSetBit(0); r >= 0; r = region.nextSetBit(r + 1)) {
                    for (long key : defsInBlock.get(r)) {
                        if (!divergent.contains(key) && usedOutside(useBlocks.get(key), region)) {
                            divergent.add(key);
                        }
                    }
                }
            }
        }
    }

    /**
     * The blocks a thread may run between the branch at the end of {@code branch} and the reconvergence point
     * {@code join} (exclusive): everything reachable from the branch's successors without passing {@code join}.
     */
    public static BitSet region(Cfg cfg, int branch, int join) {
        BitSet seen = new BitSet();
        Deque<Integer> work = new ArrayDeque<>();
        for (int s : cfg.succsView(branch)) {
            if (s != join && !seen.get(s)) {
                seen.set(s);
                work.push(s);
            }
        }
        while (!work.isEmpty()) {
            int v = work.pop();
            for (int s : cfg.succsView(v)) {
                if (s != join && !seen.get(s)) {
                    seen.set(s);
                    work.push(s);
                }
            }
        }
        return seen;
    }

    private static boolean usedOutside(BitSet uses, BitSet region) {
        if (uses != null) {
            for (int u = uses.nextSetBit(0); u >= 0; u = uses.nextSetBit(u + 1)) {
                if (!region.get(u)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when the conditional branch ending {@code block} may send the threads of a warp different ways. */
    public boolean isDivergentBranch(int block) {
        return divergentBranches.get(block);
    }

    /** True when {@code r} may hold different values in the threads of a warp. */
    public boolean isDivergent(Reg r) {
        if (r.isZero() || r.file() == RegFile.UR || r.file() == RegFile.UP) {
            return false;
        }
        for (long k : keys(r)) {
            if (divergent.contains(k)) {
                return true;
            }
        }
        return false;
    }

    private boolean branchesOnDivergentGuard(BasicBlock b) {
        Instr last = b.last();
        if (last == null || !last.op().name().equals("BRA") || last.guard().isAlways() || last.branchTarget() == null) {
            return false;
        }
        return isDivergent(last.guard().predicate());
    }

    private boolean producesDivergence(Instr in) {
        if (inherentlyDivergent(in)) {
            return true;
        }
        for (Reg r : in.usedRegs()) {
            if (isDivergent(r)) {
                return true;
            }
        }
        return false;
    }

    /** Instructions whose result differs per thread whatever their inputs. */
    static boolean inherentlyDivergent(Instr in) {
        String op = in.op().name();
        switch (op) {
            case "S2R":
                return !(specialReg(in) != null && specialReg(in).startsWith("SR_CTAID"));
            case "CS2R", "CS2R_32", "CS2R_64":
                return !"SRZ".equals(specialReg(in));
            case "SHFL", "VOTE", "MATCH", "B2R", "ELECT", "BMOV", "BMOV_R", "CALL":
                return true;
            default:
                break;
        }
        if (op.startsWith("LD")) {
            return !op.equals("LDC");
        }
        return op.startsWith("ATOM") || op.equals("RED") || op.startsWith("SU") || op.startsWith("TEX")
                || op.startsWith("TLD") || op.startsWith("TLD4") || op.startsWith("TXQ");
    }

    private static String specialReg(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof SpecialReg sr) {
                return sr.name();
            }
        }
        return null;
    }

    /** One key per 32-bit register: a virtual register as a whole, a physical tuple per component. */
    private static List<Long> keys(Reg r) {
        long file = (long) r.file().ordinal() << 40;
        if (r.isZero()) {
            return List.of();
        }
        if (r.virtual()) {
            return List.of(file | (1L << 39) | r.index());
        }
        List<Long> out = new ArrayList<>(r.comps());
        for (int i = 0; i < r.comps(); i++) {
            out.add(file | (r.index() + i));
        }
        return out;
    }
}
