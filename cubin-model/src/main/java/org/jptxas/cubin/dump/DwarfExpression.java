package org.jptxas.cubin.dump;

import java.util.ArrayList;
import java.util.List;

/**
 * cuobjdump 12.5's reading of a DWARF location expression: the operations it knows, each in its words, joined by
 * "; ". It stops at the first operation it does not know (DW_OP_call_frame_cfa, ptxas's frame base, shows no text).
 * ptxas encodes a PTX register operand of DW_OP_regx/DW_OP_bregx as the register name's characters packed into the
 * ULEB128 number, the first character in the highest byte (%r1 = 0x257231).
 */
final class DwarfExpression {
    private DwarfExpression() {}

    /** The decoded operations of {@code expr}; empty when the first one is not known. */
    static List<String> decode(byte[] expr, int pointerSize) {
        List<String> ops = new ArrayList<>();
        DwarfBytes r = new DwarfBytes(expr, 0);
        try {
            while (r.more()) {
                String op = operation(r, pointerSize);
                if (op == null) {
                    break;
                }
                ops.add(op);
            }
        } catch (IndexOutOfBoundsException e) {
            // an operand the expression's end cuts off: the operations before it stay
        }
        return ops;
    }

    private static String operation(DwarfBytes r, int pointerSize) {
        int op = r.u8();
        if (op >= 0x30 && op <= 0x4f) {
            return "DW_OP_lit" + (op - 0x30) + "  ";
        }
        if (op >= 0x50 && op <= 0x6f) {
            return "DW_OP_reg" + (op - 0x50) + "  ";
        }
        if (op >= 0x70 && op <= 0x8f) {
            return "DW_OP_breg" + (op - 0x70) + " " + r.sleb();
        }
        return switch (op) {
            case 0x03 -> "DW_OP_addr: 0x" + Long.toHexString(pointerSize == 4 ? r.u32() : r.u64());
            case 0x0c -> "DW_OP_const4u: " + (int) r.u32();
            case 0x10 -> "DW_OP_constu: " + (int) r.uleb();
            case 0x18 -> "DW_OP_xderef";
            case 0x22 -> "DW_OP_plus";
            case 0x23 -> "DW_OP_plus_uconst: " + Long.toUnsignedString(r.uleb());
            case 0x90 -> "DW_OP_regx: " + registerName(r.uleb());
            case 0x91 -> "DW_OP_fbreg: " + r.sleb();
            case 0x92 -> "DW_OP_bregx: " + registerName(r.uleb()) + " 0x" + Long.toHexString(r.sleb());
            case 0x94 -> "DW_OP_deref_size: " + r.u8();
            case 0x96 -> "DW_OP_nop";
            case 0x9f -> "DW_OP_stack_value";
            default -> null;
        };
    }

    /** The characters packed into {@code v}, highest byte first. */
    static String registerName(long v) {
        StringBuilder s = new StringBuilder();
        for (int shift = 56; shift >= 0; shift -= 8) {
            int c = (int) (v >>> shift) & 0xff;
            if (c != 0 || s.length() > 0) {
                s.append((char) c);
            }
        }
        return s.toString();
    }
}
