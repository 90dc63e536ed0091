package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassOperands;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SchedInstr;
import org.jptxas.scheduler.sass.SassShape;

/**
 * Operand-reuse flags ({@code .reuse}) as ptxas 13 sets them, learned from its output for the kernel suite: a
 * fixed-latency instruction that issues within {@link #MAX_STALL} cycles of the next keeps a source GPR of slot A, B
 * or C in the operand cache when the next instruction that reads a GPR in that slot reads the same one. Between the
 * two, variable-latency instructions (which do not read through the cache) are skipped; the search stops at a block
 * entry, a control instruction, a write of the register, or a stall longer than {@link #MAX_STALL}.
 */
final class ReuseFlags {
    static final int MAX_STALL = 2;
    private static final Set<String> NO_DEST = Set.of("STG", "STS", "ST", "STL", "RED", "REDG", "BRA", "BRX", "JMP",
            "JMX", "EXIT", "BAR", "BSYNC", "CALL", "RET", "NOP", "MEMBAR", "WARPSYNC", "DEPBAR", "ERRBAR", "CCTL", "YIELD",
            "KILL", "STSM", "SUST", "SURED", "ARRIVES", "NANOSLEEP", "FENCE", "BREAK", "BPT", "RTT");

    /** Which operands (by index) of one instruction are its sources in slots A, B and C, and their GPRs. */
    record Slots(int[] operandIndex, int[] gpr) {
        static final int NONE = -1;
    }

    private ReuseFlags() {}

    /** The slots of an instruction: the GPRs of its first three sources when each is a plain register. */
    static Slots slots(SassShape shape) {
        List<SassShape.Operand> ops = shape.operands();
        int[] index = {Slots.NONE, Slots.NONE, Slots.NONE};
        int[] gpr = {Slots.NONE, Slots.NONE, Slots.NONE};
        int dests = destinations(shape.mnemonic(), ops);
        int sources = ops.size() - dests;
        for (int k = 0; k < 3 && dests + k < ops.size(); k++) {
            // A lone source (MOV, IABS, POPC, ...) sits in slot B.
            int slot = sources == 1 ? 1 : k;
            SassShape.Operand op = ops.get(dests + k);
            if (op.simple() && !op.negated() && op.regs().get(0).file() == RegFile.R) {
                int r = op.regs().get(0).number();
                if (r != RegFile.R.zero()) {
                    index[slot] = dests + k;
                    gpr[slot] = r;
                }
            }
            if (sources == 1) {
                break;
            }
        }
        return new Slots(index, gpr);
    }

    private static boolean predicate(SassShape.Operand op) {
        return op.predicate() && !op.negated();
    }

    private static int destinations(String mnemonic, List<SassShape.Operand> ops) {
        if (NO_DEST.contains(mnemonic) || ops.isEmpty()) {
            return 0;
        }
        if (predicate(ops.get(0)) && ops.size() > 1 && (predicate(ops.get(1))
                || ops.get(1).bare() && ops.get(1).regs().get(0).file() == RegFile.R)) {
            return 2; // ISETP P0, PT, ...; LOP3.LUT P0, RZ, ...; SHFL.IDX PT, R3, ...
        }
        int d = 1;
        while (d < ops.size() && d < 3 && predicate(ops.get(d))) {
            d++; // IADD3 R1, P0, P1, ...; VOTE.ANY R0, PT, P0
        }
        return d;
    }

    /**
     * The reuse mask (bit k = slot k) of every instruction of a laid-out function, given its control words.
     * {@code blockStart[i]} marks the instructions control can reach other than from the one before.
     */
    static int[] masks(List<Slots> slotsOf, List<? extends SchedInstr> instrs, List<ControlWord> words,
                       boolean[] blockStart, LatencyModel model) {
        int n = slotsOf.size();
        Slots[] slots = slotsOf.toArray(new Slots[0]);
        boolean[] variable = new boolean[n];
        for (int i = 0; i < n; i++) {
            variable[i] = model.opClass(instrs.get(i).latencyClass()).variable();
        }
        int[] masks = new int[n];
        for (int i = 0; i < n; i++) {
            SchedInstr a = instrs.get(i);
            if (variable[i] || words.get(i).stall() > MAX_STALL || isControl(a)) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                int r = slots[i].gpr()[k];
                if (r == Slots.NONE || writes(a, r)) {
                    continue;
                }
                for (int j = i + 1; j < n && !blockStart[j]; j++) {
                    SchedInstr b = instrs.get(j);
                    if (writes(b, r) && slots[j].gpr()[k] != r) {
                        break;
                    }
                    if (variable[j]) {
                        continue;
                    }
                    int y = slots[j].gpr()[k];
                    if (y != Slots.NONE) {
                        if (y == r) {
                            masks[i] |= 1 << k;
                        }
                        break;
                    }
                    if (isControl(b) || words.get(j).stall() > MAX_STALL) {
                        break;
                    }
                }
            }
        }
        return masks;
    }

    private static boolean isControl(SchedInstr in) {
        for (SchedFlag f : in.flags()) {
            if (f != SchedFlag.FENCE) {
                return true;
            }
        }
        return false;
    }

    private static boolean writes(SchedInstr in, int gpr) {
        for (RegRange d : in.defs()) {
            if (d.file() == RegFile.R && gpr >= d.first() && gpr < d.first() + d.count()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The pieces of {@code form} (its literal text between slots) with {@code .reuse} after the operands of
     * {@code s}'s slots in {@code mask}: an operand ends in the piece after its last slot, where its own literal
     * text after that slot ends ({@link SassOperands.Operand#texts()}).
     */
    static List<String> reusePieces(SassForm form, Slots s, int mask) {
        List<String> pieces = new ArrayList<>(form.pieces());
        List<SassOperands.Operand> operands = form.operands().operands();
        for (int k = 0; k < 3; k++) {
            int index = s.operandIndex()[k];
            if ((mask >> k & 1) == 0 || index == Slots.NONE) {
                continue;
            }
            SassOperands.Operand o = operands.get(index);
            int piece = o.slots().get(o.slots().size() - 1) + 1;
            int end = o.texts().get(o.texts().size() - 1).length();
            String p = pieces.get(piece);
            pieces.set(piece, p.substring(0, end) + ".reuse" + p.substring(end));
        }
        return pieces;
    }
}
