package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Numbers a function's sign fills ({@code SHF.R.S32.HI t, RZ, n, x}) by value, as ptxas numbers the sign extensions
 * it may fuse into LEA.HI.X.SX32: fills computing the same value share a number, given in the order in which the
 * function's blocks first extend each value, whether or not that first fill dominates the others. Of two
 * sign-extended addends ptxas fuses the one with the lower number: in a block that follows an unrelated block extending the same expression (say
 * {@code (int) (tid.x * 2)}) that extension is the older value and is fused, though its cvt comes second.
 *
 * <p>Values are compared structurally through pure, repeatable single-definition instructions; a register written
 * more than once (a loop-carried variable) stands for a value of its own at each fill, since which write reaches
 * there is not known here.
 */
final class SignFillNumbering {
    /** How deep a value's expression is followed; deeper operands count as their own registers. */
    private static final int DEPTH = 8;

    private final FunctionBody body;
    private final SingleDefs sd;
    /** Each fill's number, computed when first asked (most functions never have two fills compete). */
    private Map<Instr, Integer> numbers;
    /** Each stable register's value key, computed once (an expression shared by several fills is keyed once). */
    private final Map<Reg, Object> values = new HashMap<>();

    SignFillNumbering(FunctionBody body, SingleDefs sd) {
        this.body = body;
        this.sd = sd;
    }

    /** The fill's value number (lower is older), or {@link Integer#MAX_VALUE} for an instruction not numbered. */
    int number(Instr fill) {
        if (numbers == null) {
            numbers = numberFills();
        }
        return numbers.getOrDefault(fill, Integer.MAX_VALUE);
    }

    private Map<Instr, Integer> numberFills() {
        Map<Instr, Integer> numbered = new IdentityHashMap<>();
        Map<Object, Integer> firstSeen = new HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (isSignFill(in)) {
                    List<Object> key = List.of(in.srcs().get(1).toString(), value(in.srcs().get(2), DEPTH));
                    numbered.put(in, firstSeen.computeIfAbsent(key, k -> firstSeen.size()));
                }
            }
        }
        return numbered;
    }

    private static boolean isSignFill(Instr in) {
        return OpInfo.is(in, "SHF") && in.mods().equals(List.of("R", "S32", "HI")) && in.srcs().size() == 3
                && OpInfo.isRZ(in.srcs().get(0)) && in.guard().isAlways();
    }

    /** A key equal for two operands exactly when they are known to hold the same value. */
    private Object value(Src s, int depth) {
        if (!(s.value() instanceof Reg r) || !r.virtual()) {
            return s.toString();
        }
        return List.of(List.of(s.neg(), s.abs(), s.not()), registerValue(r, depth));
    }

    private Object registerValue(Reg r, int depth) {
        Object known = values.get(r);
        if (known != null) {
            return known;
        }
        Instr def = sd.soleWrite(r);
        if (def == null) {
            return new Object(); // written more than once: which write reaches the fill is not followed here
        }
        if (depth == 0 || !OpInfo.isRepeatable(def) || !def.guard().isAlways()) {
            values.put(r, r); // one value, named by its register
            return r;
        }
        values.put(r, r); // a placeholder while the operands are keyed
        List<Object> key = new ArrayList<>();
        key.add(def.op().name());
        key.add(def.mods());
        key.add(def.dsts().indexOf(r));
        for (Src in : def.srcs()) {
            key.add(value(in, depth - 1));
        }
        values.put(r, key);
        return key;
    }
}
