package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.Arrays;
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
        Map<ValueKey, List<Instr>> seen = new HashMap<>();
        List<Reg> regs = new ArrayList<>(2);
        boolean changed = false;
        for (int bid : sd.cfg().reversePostorder()) {
            BasicBlock b = body.block(bid);
            List<Instr> instrs = b.instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                ValueKey key = key(in, sd, regs);
                if (key == null) {
                    continue;
                }
                List<Instr> earlier = seen.get(key);
                if (earlier == null) {
                    earlier = new ArrayList<>(2);
                    seen.put(key, earlier);
                }
                Instr match = null;
                for (int e = 0; e < earlier.size(); e++) {
                    if (sd.dominates(earlier.get(e), in)) {
                        match = earlier.get(e);
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

    /**
     * The value key of an instruction CSE may merge, or null. {@code regs} is scratch space for the registers a
     * source reads.
     */
    private static ValueKey key(Instr in, SingleDefs sd, List<Reg> regs) {
        if (!in.guard().isAlways() || !OpInfo.isRepeatable(in) || in.dsts().isEmpty()) {
            return null;
        }
        List<Reg> dsts = in.dsts();
        int[] shapes = new int[dsts.size()];
        for (int i = 0; i < dsts.size(); i++) {
            Reg d = dsts.get(i);
            if (d.isZero()) {
                shapes[i] = -1;
                continue;
            }
            if (d.isPart() || sd.soleDef(d) != in) {
                return null;
            }
            shapes[i] = d.file().ordinal() * 8 + d.comps();
        }
        List<Src> srcs = in.srcs();
        Object[] values = new Object[srcs.size()];
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            regs.clear();
            Instr.addRegsRead(s, regs);
            for (int j = 0; j < regs.size(); j++) {
                Reg r = regs.get(j);
                if (r.virtual() && !sd.stable(r)) {
                    return null;
                }
                if (!r.virtual() && !r.isZero()) {
                    return null;
                }
            }
            values[i] = SourceText.canonical(s);
        }
        return new ValueKey(in.op().name(), in.mods(), shapes, values);
    }

    /**
     * Opcode name, modifiers, per destination its file and size (-1 for a zero register) and the sources made
     * canonical ({@link SourceText}): two instructions with equal keys compute the same values when
     * their registers are SSA-like. Equals and the hash are written out, C1 not inlining a record's generated ones.
     */
    private static final class ValueKey {
        private final String op;
        private final List<String> mods;
        private final int[] shapes;
        private final Object[] srcs;
        private final int hash;

        ValueKey(String op, List<String> mods, int[] shapes, Object[] srcs) {
            this.op = op;
            this.mods = mods;
            this.shapes = shapes;
            this.srcs = srcs;
            int h = op.hashCode() * 31 + mods.hashCode();
            for (int s : shapes) {
                h = h * 31 + s;
            }
            for (Object s : srcs) {
                h = h * 31 + s.hashCode();
            }
            this.hash = h;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ValueKey k && hash == k.hash && op.equals(k.op) && mods.equals(k.mods)
                    && Arrays.equals(shapes, k.shapes) && Arrays.equals(srcs, k.srcs);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
