package org.jptxas.tables.isel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Objects;

/**
 * One step of a matcher's emit template, applied in order to the sm_80-spelled instruction:
 * <ul>
 * <li>{@code "=VIMNMX"}: the SASS opcode (dotted, before the modifiers) becomes {@code VIMNMX};</li>
 * <li>{@code "+SYS"}: append modifier {@code SYS}; {@code "^U"}: insert {@code U} as the first modifier;</li>
 * <li>{@code "-DEFER_BLOCKING"}: drop the modifier (if present); {@code "~A>B"}: rename modifier A to B, where B may
 * be several ({@code "~PACK_AB>F16.F32.PACK_AB"});</li>
 * <li>{@code "ops:0,2,1,PT"}: the operands become these (indexes into the instruction's operands in print order,
 * or the constant registers {@code PT !PT RZ URZ UPT !UPT});</li>
 * <li>{@code "desc"}: the memory descriptor (a uniform register pair appended as the last source by the legalizer)
 * is printed as {@code desc[URx]} before the address.</li>
 * <li>{@code "implicit"}: drop the operands Ori lists only for liveness (a warpgroup multiply's accumulator beyond its
 * first register, {@code WARPGROUP}'s accumulators): see {@code isel.select.WarpgroupOperands}.</li>
 * </ul>
 */
public record EmitAction(Kind kind, String arg, List<String> operands) {
    public enum Kind { OPCODE, APPEND_MOD, PREPEND_MOD, DROP_MOD, RENAME_MOD, OPERANDS, DESCRIPTOR, IMPLICIT }

    private static final List<String> CONSTANTS = List.of("PT", "!PT", "RZ", "URZ", "UPT", "!UPT");

    public EmitAction {
        Objects.requireNonNull(kind, "kind");
        operands = operands == null ? List.of() : List.copyOf(operands);
    }

    @JsonCreator
    public static EmitAction parse(String text) {
        if (text.equals("desc")) {
            return new EmitAction(Kind.DESCRIPTOR, null, null);
        }
        if (text.equals("implicit")) {
            return new EmitAction(Kind.IMPLICIT, null, null);
        }
        if (text.startsWith("ops:")) {
            List<String> ops = text.length() == 4 ? List.of() : List.of(text.substring(4).split(","));
            for (String o : ops) {
                if (!o.matches("[0-9]|1[0-5]") && !CONSTANTS.contains(o)) {
                    throw new IllegalArgumentException("bad operand '" + o + "' in '" + text + "' (index 0..15 or "
                            + String.join(" ", CONSTANTS) + ")");
                }
            }
            return new EmitAction(Kind.OPERANDS, null, ops);
        }
        if (text.length() < 2) {
            throw new IllegalArgumentException("bad emit action '" + text + "'");
        }
        String arg = text.substring(1);
        Kind kind = switch (text.charAt(0)) {
            case '=' -> Kind.OPCODE;
            case '+' -> Kind.APPEND_MOD;
            case '^' -> Kind.PREPEND_MOD;
            case '-' -> Kind.DROP_MOD;
            case '~' -> Kind.RENAME_MOD;
            default -> throw new IllegalArgumentException("bad emit action '" + text
                    + "' (want =OPCODE +MOD ^MOD -MOD ~OLD>NEW ops:... desc)");
        };
        // a modifier is upper case, digits and '_', save the shape spellings with 'x' (DMMA.8x8x4, HGMMA.64x128x16)
        String mod = "[A-Z0-9_]+(x[A-Z0-9_]+)*";
        String pattern = switch (kind) {
            case OPCODE -> "[A-Z][A-Z0-9_]*(\\.[A-Z0-9_]+)*";
            case RENAME_MOD -> mod + ">" + mod + "(\\." + mod + ")*";
            default -> mod;
        };
        if (!arg.matches(pattern)) {
            throw new IllegalArgumentException("bad argument in emit action '" + text + "'");
        }
        return new EmitAction(kind, arg, null);
    }

    @JsonValue
    public String text() {
        return switch (kind) {
            case OPCODE -> "=" + arg;
            case APPEND_MOD -> "+" + arg;
            case PREPEND_MOD -> "^" + arg;
            case DROP_MOD -> "-" + arg;
            case RENAME_MOD -> "~" + arg;
            case OPERANDS -> "ops:" + String.join(",", operands);
            case DESCRIPTOR -> "desc";
            case IMPLICIT -> "implicit";
        };
    }
}
