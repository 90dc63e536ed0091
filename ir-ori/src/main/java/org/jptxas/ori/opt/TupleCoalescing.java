package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Operands built part by part ({@code MOV t.k, x}, as tensor-core fragments and vector stores are): a scalar
 * written once, read only by that copy, earlier in the same block, is written straight into the part, and the copy
 * goes. The register allocator coalesces whole registers only; ptxas loads fragments into their registers, and
 * every copy left is an issue slot and a dependent step before the HMMA.
 */
public final class TupleCoalescing implements Pass {
    @Override
    public String name() {
        return "tuples";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        if (shareFragments(body, sd)) {
            return true; // the definitions changed: the next round sees fresh def-use chains
        }
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> ins = b.instrs();
            for (int j = 0; j < ins.size(); j++) {
                Instr mov = ins.get(j);
                int i = definition(ins, j, sd);
                if (i < 0) {
                    continue;
                }
                Reg part = mov.dsts().get(0);
                Reg x = (Reg) mov.srcs().get(0).value();
                Instr def = ins.get(i);
                List<Reg> d = def.dsts();
                for (int k = 0; k < d.size(); k++) {
                    if (d.get(k).equals(x)) {
                        d.set(k, part);
                    }
                }
                // x's other reads (the same value copied into a second fragment) read the part it now lives in
                for (Instr use : sd.uses(x)) {
                    if (use != mov) {
                        Rewrites.replaceUses(use, x, part);
                    }
                }
                ins.remove(j);
                j--;
                changed = true;
            }
        }
        return changed;
    }

    /**
     * A tuple built part by part from the same values, in the same order, as an earlier tuple of the block (one
     * fragment fed to several MMAs) is that tuple: its reads read the earlier one and its copies die. Every value
     * is stable (one definition that dominates its reads), so the earlier tuple holds them wherever the later is read.
     */
    private static boolean shareFragments(FunctionBody body, SingleDefs sd) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            Map<Reg, Reg[]> built = new HashMap<>();
            Map<Reg, Integer> completedAt = new HashMap<>();
            List<Instr> ins = b.instrs();
            for (int j = 0; j < ins.size(); j++) {
                Instr mov = ins.get(j);
                if (!OpInfo.is(mov, "MOV") || !mov.guard().isAlways() || !mov.mods().isEmpty()
                        || mov.dsts().size() != 1 || mov.srcs().size() != 1 || mov.srcs().get(0).hasModifiers()) {
                    continue;
                }
                Reg part = mov.dsts().get(0);
                if (!part.virtual() || !part.isPart() || part.file() != RegFile.R || !sd.stable(part.whole())
                        || sd.defs(part.whole()).size() != part.comps()) {
                    continue;
                }
                Reg t = part.whole();
                Reg[] values = built.computeIfAbsent(t, k -> new Reg[k.comps()]);
                Reg value = mov.srcs().get(0).value() instanceof Reg y && y.virtual() && y.file() == RegFile.R
                        && sd.stable(y.isPart() ? y.whole() : y) ? y : null;
                if (value == null || values[part.part()] != null) {
                    built.remove(t);
                    completedAt.remove(t);
                    continue;
                }
                values[part.part()] = value;
                if (Arrays.stream(values).allMatch(Objects::nonNull)) {
                    completedAt.put(t, j);
                }
            }
            List<Reg> inOrder = new ArrayList<>(completedAt.keySet());
            inOrder.sort(Comparator.comparingInt(completedAt::get));
            Map<List<Reg>, Reg> firstWith = new HashMap<>();
            for (Reg t : inOrder) {
                Reg same = firstWith.putIfAbsent(List.of(built.get(t)), t);
                if (same != null) {
                    for (Instr use : new ArrayList<>(sd.uses(t))) {
                        changed |= Rewrites.replaceUses(use, t, same);
                    }
                }
            }
        }
        return changed;
    }

    /** The index of the instruction {@code MOV t.k, x} at {@code j} may write into {@code t.k} instead, or -1. */
    private static int definition(List<Instr> ins, int j, SingleDefs sd) {
        Instr mov = ins.get(j);
        if (!OpInfo.is(mov, "MOV") || !mov.guard().isAlways() || !mov.mods().isEmpty() || mov.dsts().size() != 1
                || mov.srcs().size() != 1) {
            return -1;
        }
        Reg part = mov.dsts().get(0);
        Src s = mov.srcs().get(0);
        if (!part.virtual() || !part.isPart() || part.file() != RegFile.R || s.hasModifiers()
                || !(s.value() instanceof Reg x) || !x.virtual() || x.isPart() || x.comps() != 1
                || x.file() != RegFile.R || sd.defs(x).size() != 1
                || sd.uses(x).size() != 1 && !sharedValue(x, part, mov, sd)) {
            return -1;
        }
        Instr def = sd.defs(x).get(0);
        if (!def.guard().isAlways()) {
            return -1;
        }
        for (int i = j - 1; i >= 0; i--) {
            Instr in = ins.get(i);
            if (in == def) {
                int writes = 0;
                for (Reg r : def.dsts()) {
                    writes += r.equals(x) ? 1 : 0;
                }
                return writes == 1 ? i : -1;
            }
            // nothing in between may read or write the part (the whole tuple included); other parts may be built
            if (touches(in, part)) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * {@code x} (stable) is read only in its block (one value in several fragments, or a fragment and a scalar
     * operand), and {@code part}'s tuple is written once per part: the part that takes x's definition holds it
     * wherever the other reads are.
     */
    private static boolean sharedValue(Reg x, Reg part, Instr mov, SingleDefs sd) {
        if (sd.soleDef(x) == null || !sd.stable(part.whole()) || sd.defs(part.whole()).size() != part.comps()) {
            return false;
        }
        int block = sd.position(sd.soleDef(x)).block();
        for (Instr u : sd.uses(x)) {
            if (sd.position(u).block() != block) {
                return false; // the whole tuple would stay live across blocks for one part
            }
            if (u != mov && Rewrites.writes(u, part.whole())) {
                return false; // a tuple reading its own part to build another is no longer written once, then read
            }
        }
        return true;
    }

    /** {@code in} reads or writes {@code part} itself (the whole tuple, or that part; other parts do not count). */
    private static boolean touches(Instr in, Reg part) {
        for (Reg r : in.usedRegs()) {
            if (covers(r, part)) {
                return true;
            }
        }
        for (Reg r : in.dsts()) {
            if (covers(r, part)) {
                return true;
            }
        }
        return false;
    }

    private static boolean covers(Reg r, Reg part) {
        return r.sameRegister(part) && (!r.isPart() || r.part() == part.part());
    }
}
