package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
     * {@code text} (an instruction's text, or its form's skeleton with {@code {}} for the operand fields) with
     * {@code .reuse} after the operands of {@code s}'s slots in {@code mask}.
     */
    static String withReuse(String text, Slots s, int mask) {
        if (mask == 0) {
            return text;
        }
        int[] ends = operandEnds(text);
        StringBuilder sb = new StringBuilder(text);
        for (int k = 2; k >= 0; k--) {
            int op = s.operandIndex()[k];
            if ((mask >> k & 1) != 0 && op != Slots.NONE) {
                sb.insert(ends[op], ".reuse");
            }
        }
        return sb.toString();
    }

    /** The offset in {@code text} just after the last non-blank character of each operand. */
    private static int[] operandEnds(String text) {
        String t = text.stripTrailing();
        String lead = t.stripLeading();
        int start = t.length() - lead.length();
        if (lead.startsWith("@")) {
            start = t.indexOf(' ', start) + 1;
            while (t.charAt(start) == ' ') {
                start++;
            }
        }
        int sp = t.indexOf(' ', start);
        List<Integer> ends = new ArrayList<>();
        if (sp < 0) {
            return new int[0];
        }
        int depth = 0;
        int lastNonBlank = -1;
        for (int i = sp + 1; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch == '[' || ch == '{' || ch == '(') {
                depth++;
            } else if (ch == ']' || ch == '}' || ch == ')') {
                depth--;
            }
            if (ch == ',' && depth == 0) {
                ends.add(lastNonBlank + 1);
            } else if (ch != ' ') {
                lastNonBlank = i;
            }
        }
        ends.add(lastNonBlank + 1);
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }
}
