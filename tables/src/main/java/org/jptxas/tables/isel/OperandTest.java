package org.jptxas.tables.isel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.EnumSet;
import java.util.Set;

/**
 * A constraint on one operand (index in print order: destinations, then sources): its kind is one of {@code kinds},
 * and an immediate lies in {@code [min, max]}. Written {@code "2:imm"}, {@code "3:R|UR"},
 * {@code "2:imm:-0x80000..0x7ffff"}, or {@code "4:absent"} for an instruction with at most 4 operands.
 */
public record OperandTest(int index, Set<OperandKind> kinds, long min, long max) {
    public OperandTest {
        if (index < 0 || index > 15) {
            throw new IllegalArgumentException("operand index " + index + " out of range 0..15");
        }
        kinds = kinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(kinds));
        if (min > max) {
            throw new IllegalArgumentException("empty immediate range " + min + ".." + max);
        }
    }

    /** {@code "absent"}: the instruction has no operand at {@code index}. */
    public boolean absent() {
        return kinds.isEmpty();
    }

    public boolean ranged() {
        return min != Long.MIN_VALUE || max != Long.MAX_VALUE;
    }

    @JsonCreator
    public static OperandTest parse(String text) {
        String[] parts = text.split(":", 3);
        if (parts.length < 2) {
            throw new IllegalArgumentException("bad operand test '" + text + "' (want 'INDEX:KIND|KIND[:MIN..MAX]')");
        }
        int index;
        try {
            index = Integer.parseInt(parts[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad operand index in '" + text + "'");
        }
        EnumSet<OperandKind> kinds = EnumSet.noneOf(OperandKind.class);
        if (!parts[1].equals("absent")) {
            for (String k : parts[1].split("\\|")) {
                kinds.add(OperandKind.parse(k));
            }
        }
        long min = Long.MIN_VALUE;
        long max = Long.MAX_VALUE;
        if (parts.length == 3) {
            if (!kinds.equals(EnumSet.of(OperandKind.IMM))) {
                throw new IllegalArgumentException("a range applies to imm only, in '" + text + "'");
            }
            String[] mm = parts[2].split("\\.\\.");
            if (mm.length != 2) {
                throw new IllegalArgumentException("bad range in '" + text + "' (want MIN..MAX)");
            }
            min = number(mm[0], text);
            max = number(mm[1], text);
        }
        return new OperandTest(index, kinds, min, max);
    }

    private static long number(String s, String text) {
        try {
            boolean neg = s.startsWith("-");
            String t = neg ? s.substring(1) : s;
            long v = t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
            return neg ? -v : v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad number '" + s + "' in '" + text + "'");
        }
    }

    @JsonValue
    public String text() {
        if (absent()) {
            return index + ":absent";
        }
        StringBuilder sb = new StringBuilder().append(index).append(':');
        String sep = "";
        for (OperandKind k : EnumSet.copyOf(kinds)) {
            sb.append(sep).append(k.spelling());
            sep = "|";
        }
        if (ranged()) {
            sb.append(':').append(min).append("..").append(max);
        }
        return sb.toString();
    }
}
