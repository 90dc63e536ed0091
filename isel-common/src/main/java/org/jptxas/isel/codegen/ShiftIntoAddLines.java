package org.jptxas.isel.codegen;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A right shift whose value only feeds an add, which ptxas fuses with the add into one LEA.HI: {@code shr.u32} +
 * {@code add.s32} become {@code LEA.HI Rd, Rs, Ra, RZ, 32-k}, and a sign extension ({@code cvt.s64.s32}) feeding the
 * high half of a 64-bit add becomes {@code LEA.HI.X.SX32}. The fused instruction carries the add's line, so the
 * shift's line has no code of its own in ptxas's table. Where jptxas keeps the shift as an SHF before its add, the
 * shift takes its add's line in the same way (checked with ptxas 13 {@code -lineinfo} and {@code nvdisasm -g}).
 */
final class ShiftIntoAddLines {
    private ShiftIntoAddLines() {}

    /** {@code SHF.R.U32.HI R4, RZ, 0x5, R4}: a logical shift right; {@code SHF.R.S32.HI R7, RZ, 0x1f, R0}: a sign. */
    private static final Pattern SHIFT =
            Pattern.compile("SHF\\.R\\.(U32|S32)\\.HI R(\\d+), RZ, (0x[0-9a-f]+), R\\d+");
    /** {@code IADD3 R4, R4, R21, RZ} / {@code IADD3.X R9, R7, c[0x0][0x16c], RZ, P0, !PT}: two addends, no third. */
    private static final Pattern ADD =
            Pattern.compile("IADD3(\\.X)? R\\d+, (P\\d, )?([^,]+), ([^,]+), RZ(, .*)?");
    private static final Pattern REGISTER = Pattern.compile("(?<![\\w.])R(\\d+)(\\.64)?(?![\\w])");

    /**
     * The index of the add the shift at {@code i} folds into (the first instruction after it, in its block, that
     * reads the shifted register), or -1 when the instruction is no such shift.
     */
    static int consumer(List<CodeLine> code, int i) {
        CodeLine line = code.get(i);
        if (line.guarded()) {
            return -1;
        }
        Matcher shift = SHIFT.matcher(line.text());
        if (!shift.matches()) {
            return -1;
        }
        boolean sign = shift.group(1).equals("S32");
        if (sign && !shift.group(3).equals("0x1f")) {
            return -1;
        }
        int reg = Integer.parseInt(shift.group(2));
        for (int j = i + 1; j < code.size(); j++) {
            CodeLine next = code.get(j);
            if (next.label() != null) {
                return -1;
            }
            String operands = operands(next.unguarded());
            if (reads(operands, reg)) {
                Matcher add = ADD.matcher(next.unguarded());
                boolean carries = add.matches() && add.group(1) != null;
                if (next.guarded() || !add.matches() || carries != sign) {
                    return -1;
                }
                boolean first = isRegister(add.group(3), reg);
                if (!first && !isRegister(add.group(4), reg)) {
                    return -1;
                }
                // LEA.HI.X.SX32 extends one addend: of two sign extensions ptxas fuses the one whose cvt.s64.s32
                // comes first in the PTX and keeps the later one's SHF with its line (whatever the add's operand
                // order; checked with ptxas 13 on both cvt orders)
                int other = sign ? signExtension(code, j, add.group(first ? 4 : 3)) : -1;
                if (other < 0) {
                    return j;
                }
                int mine = line.ptxLine();
                int theirs = code.get(other).ptxLine();
                return mine < theirs || mine == theirs && first ? j : -1;
            }
            if (writes(next.unguarded(), reg) || next.endsControl()) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * The index of the last writer before {@code at} of the register {@code operand} names when it sets it to a sign
     * (an SHF by 0x1f), else -1.
     */
    private static int signExtension(List<CodeLine> code, int at, String operand) {
        Matcher r = REGISTER.matcher(operand.strip());
        if (!r.lookingAt()) {
            return -1;
        }
        int reg = Integer.parseInt(r.group(1));
        for (int k = at - 1; k >= 0; k--) {
            String text = code.get(k).unguarded();
            if (writes(text, reg)) {
                Matcher shift = SHIFT.matcher(text);
                return shift.matches() && shift.group(1).equals("S32") && shift.group(3).equals("0x1f") ? k : -1;
            }
        }
        return -1;
    }

    private static String operands(String text) {
        int sp = text.indexOf(' ');
        return sp < 0 ? "" : text.substring(sp + 1);
    }

    /** Whether a source operand names the register (as itself, or as the high half of a {@code .64} pair). */
    private static boolean reads(String operands, int reg) {
        String sources = operands;
        if (!operands.startsWith("[") && !operands.isEmpty()) {
            int comma = operands.indexOf(',');
            sources = comma < 0 ? "" : operands.substring(comma + 1);
        }
        Matcher m = REGISTER.matcher(sources);
        while (m.find()) {
            int n = Integer.parseInt(m.group(1));
            if (n == reg || m.group(2) != null && n + 1 == reg) {
                return true;
            }
        }
        return false;
    }

    /** Whether the first operand, the destination of all but stores, is the register (or a pair holding it). */
    private static boolean writes(String text, int reg) {
        Matcher m = REGISTER.matcher(operands(text));
        if (!m.lookingAt()) {
            return false;
        }
        int n = Integer.parseInt(m.group(1));
        return n == reg || n + 1 == reg && (m.group(2) != null || text.contains(".64 ") || text.contains(".WIDE"));
    }

    private static boolean isRegister(String operand, int reg) {
        String o = operand.strip();
        return (o.endsWith(".reuse") ? o.substring(0, o.length() - ".reuse".length()) : o).equals("R" + reg);
    }
}
