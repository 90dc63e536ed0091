package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Dominator-scoped common-subexpression elimination over repeatable pure instructions (ALU ops, S2R of a
 * non-clock special register, LDC/constant reads): when an earlier instruction with the same opcode, modifiers
 * and sources dominates a later one, and every register involved is SSA-like (so the sources hold the same values
 * at both and the earlier results are still there), the later one's readers read the earlier one's results.
 * The later instruction is left dead for dead-code elimination.
 */
public final class CommonSubexpressionElimination implements Pass {
    @Override
    public String name() {
        return "cse";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        Map<String, List<Instr>> seen = new HashMap<>();
        boolean changed = false;
        for (int bid : sd.cfg().reversePostorder()) {
            BasicBlock b = body.block(bid);
            for (Instr in : b.instrs()) {
                String key = key(in, sd);
                if (key == null) {
                    continue;
                }
                List<Instr> earlier = seen.computeIfAbsent(key, k -> new ArrayList<>());
                Instr match = null;
                for (Instr e : earlier) {
                    if (sd.dominates(e, in)) {
                        match = e;
                        break;
                    }
                }
                if (match == null) {
                    earlier.add(in);
                    continue;
                }
                for (int i = 0; i < in.dsts().size(); i++) {
                    Reg from = in.dsts().get(i);
                    Reg to = match.dsts().get(i);
                    if (from.isZero()) {
                        continue;
                    }
                    for (Instr use : sd.uses(from)) {
                        changed |= Rewrites.replaceUses(use, from, to);
                    }
                }
            }
        }
        return changed;
    }

    /** The value key of an instruction CSE may merge, or null. */
    private static String key(Instr in, SingleDefs sd) {
        if (!in.guard().isAlways() || !OpInfo.isRepeatable(in) || in.dsts().isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(in.op().name()).append(in.mods());
        for (Reg d : in.dsts()) {
            if (d.isZero()) {
                sb.append("|_");
                continue;
            }
            if (d.isPart() || sd.soleDef(d) != in) {
                return null;
            }
            sb.append('|').append(d.file()).append(d.comps());
        }
        for (Src s : in.srcs()) {
            for (Reg r : usedBy(s)) {
                if (r.virtual() && !sd.stable(r)) {
                    return null;
                }
                if (!r.virtual() && !r.isZero()) {
                    return null;
                }
            }
            sb.append(';').append(s.neg()).append(s.abs()).append(s.not()).append(s.value());
        }
        return sb.toString();
    }

    private static List<Reg> usedBy(Src s) {
        // read off the source itself: a probe instruction per source was a fifth of this pass
        List<Reg> regs = new ArrayList<>(2);
        Instr.addRegsRead(s, regs);
        return regs;
    }
}
