package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.CallingConvention;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Whether a loop of a subroutine starts from the subroutine's parameters: most of the values it carries from one
 * iteration to the next (registers written in the loop and also before it) enter it computed only from the
 * parameter registers (the calling convention's argument block) and constants, and at least one from a parameter. ptxas 13 unrolls such a loop
 * fully far past its usual size limits (keccak_f800's 21 rounds of about 50 SASS instructions, and a body of 125 XORs
 * and rotates 200 times), where the same loop starting from {@code %tid.x} arithmetic or from loads, or in a kernel,
 * stays a loop (sm_80 experiments).
 */
final class ParameterLoopState {
    /** How deep a value's computation is followed back. */
    private static final int DEPTH = 6;

    private final List<Instr> before = new ArrayList<>();
    private final Map<Reg, Boolean> known = new HashMap<>();

    private ParameterLoopState(FunctionBody body, int header) {
        for (int b = 0; b < header; b++) {
            before.addAll(body.block(b).instrs());
        }
    }

    /** Whether the loop of blocks {@code header..latch} starts from the function's parameters. */
    static boolean startsFromParameters(FunctionBody body, int header, int latch) {
        List<Reg> carried = new ArrayList<>();
        List<Instr> loop = new ArrayList<>();
        for (int b = header; b <= latch; b++) {
            loop.addAll(body.block(b).instrs());
        }
        ParameterLoopState state = new ParameterLoopState(body, header);
        for (Instr in : loop) {
            for (Reg d : in.dsts()) {
                Reg w = d.whole();
                if (w.virtual() && !carried.contains(w) && state.writtenBefore(w)) {
                    carried.add(w);
                }
            }
        }
        int fromParameters = 0;
        int fromConstants = 0;
        for (Reg r : carried) {
            Boolean p = state.derived(r, DEPTH);
            if (p == null) {
                continue;
            }
            if (p) {
                fromParameters++;
            } else {
                fromConstants++;
            }
        }
        return fromParameters > 0 && 2 * (fromParameters + fromConstants) > carried.size();
    }

    private boolean writtenBefore(Reg r) {
        for (Instr in : before) {
            for (Reg d : in.dsts()) {
                if (d.sameRegister(r)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * How register {@code r} enters the loop: true when every write before it computes it from parameter registers
     * and constants with at least one parameter, false from constants alone, null otherwise.
     */
    private Boolean derived(Reg r, int depth) {
        Reg w = r.whole();
        if (known.containsKey(w)) {
            return known.get(w);
        }
        known.put(w, null); // a cycle through the loop's own values counts as not derived
        Boolean result = depth == 0 ? null : Boolean.FALSE;
        boolean any = false;
        for (Instr in : before) {
            if (result == null) {
                break;
            }
            boolean writes = false;
            for (Reg d : in.dsts()) {
                writes |= d.sameRegister(w);
            }
            if (!writes) {
                continue;
            }
            any = true;
            Boolean v = computed(in, depth);
            result = v == null ? null : result || v;
        }
        if (!any) {
            result = null;
        }
        known.put(w, result);
        return result;
    }

    /** As {@link #derived}, for the value one instruction computes. */
    private Boolean computed(Instr in, int depth) {
        if (!OpInfo.isRepeatable(in) || !in.guard().isAlways() || OpInfo.is(in, "S2R") || OpInfo.is(in, "CS2R")) {
            return null;
        }
        boolean parameter = false;
        for (Src s : in.srcs()) {
            if (s.value() instanceof Imm) {
                continue;
            }
            if (s.value() instanceof CBank) {
                return null; // a kernel parameter or a constant variable: such loops keep ptxas's limits
            }
            if (!(s.value() instanceof Reg r)) {
                return null;
            }
            if (r.isZero()) {
                continue;
            }
            if (!r.virtual()) {
                if (!CallingConvention.isArgumentRegister(r)) {
                    return null;
                }
                parameter = true;
                continue;
            }
            Boolean v = derived(r, depth - 1);
            if (v == null) {
                return null;
            }
            parameter |= v;
        }
        return parameter;
    }
}
