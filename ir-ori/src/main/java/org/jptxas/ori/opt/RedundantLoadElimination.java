package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeSet;

/**
 * A weak load of the same address as an earlier one in the same block, with nothing between them that may write
 * memory or order it, becomes a copy of the earlier load's result ({@code MOV d, e}; copy propagation and dead-code
 * elimination take it from there). ptxas does the same: a tensor-core kernel that reloads the fragments of one tile
 * for each MMA shape loads them once, and each reload it keeps is a memory latency on the MMA chain's path.
 *
 * <p>Only 32-bit global, shared and generic loads without memory-ordering modifiers ({@code STRONG}, {@code MMIO}) are
 * merged: under the PTX memory model a weak load may return what an earlier weak load of the same address returned
 * when no write or fence of this thread lies between (another thread's write there would be a data race). Anything
 * between that is not a pure register operation, another weak load or a matrix multiply ends the search.
 */
public final class RedundantLoadElimination implements Pass {
    private static final OpcodeSet LOADS = OpcodeSet.of("LDG", "LDS", "LD");
    /** Register-only instructions besides {@link OpInfo#isPure}: they neither touch memory nor order it. */
    private static final OpcodeSet NO_MEMORY = OpcodeSet.of("HMMA", "IMMA", "DMMA", "BMMA", "QMMA");
    private static final Set<String> ORDERING_MODS = Set.of("STRONG", "MMIO", "SYS", "GPU", "VOLATILE");

    @Override
    public String name() {
        return "loadcse";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> window = new ArrayList<>();
            for (Instr in : b.instrs()) {
                if (weakLoad(in)) {
                    Instr earlier = match(window, in, sd);
                    if (earlier != null) {
                        OpInfo.makeMov(in, in.dsts().get(0), earlier.dsts().get(0));
                        changed = true;
                        continue;
                    }
                    if (sd.stable(in.dsts().get(0)) && sd.soleDef(in.dsts().get(0)) == in && stableSources(in, sd)) {
                        window.add(in);
                    }
                } else if (!OpInfo.isPure(in) && !NO_MEMORY.contains(in.op())) {
                    window.clear();
                }
            }
        }
        return changed;
    }

    /** An unguarded 32-bit load into a virtual R scalar, without ordering modifiers. */
    private static boolean weakLoad(Instr in) {
        if (!LOADS.contains(in.op()) || !in.guard().isAlways() || in.dsts().size() != 1) {
            return false;
        }
        Reg d = in.dsts().get(0);
        if (!OpInfo.isPlainVirtualR(d) || d.isPart()) {
            return false;
        }
        for (String m : in.mods()) {
            if (ORDERING_MODS.contains(m) || m.equals("64") || m.equals("128")) {
                return false;
            }
        }
        return true;
    }

    private static boolean stableSources(Instr in, SingleDefs sd) {
        for (Reg r : in.usedRegs()) {
            if (!r.isZero() && !sd.stable(r)) {
                return false;
            }
        }
        return true;
    }

    /** The earlier load in {@code window} reading what {@code in} reads, or null. */
    private static Instr match(List<Instr> window, Instr in, SingleDefs sd) {
        if (!stableSources(in, sd)) {
            return null;
        }
        for (Instr e : window) {
            if (e.op() == in.op() && e.mods().equals(in.mods()) && sameSources(e.srcs(), in.srcs())) {
                return e;
            }
        }
        return null;
    }

    private static boolean sameSources(List<Src> a, List<Src> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
