package org.jptxas.cli.generality;

import java.util.List;
import java.util.Objects;
import org.jptxas.tables.ptx.PtxType;

/**
 * One instruction form as the suite tests it: the instruction (opcode, modifier and type words), the kind of each
 * operand (register, immediate with its value, vector, sink, address form), and whether it is guarded by a
 * predicate. {@link #key()} names it in reports and known-exception lists.
 *
 * @param opcode the opcode as the instruction table names it ({@code add}, {@code cvt.pack})
 * @param formIndex the index of the table form it was made from, for messages
 * @param words the modifier and type words in the order they are written
 * @param operands the operands in order
 * @param predicated whether the instruction is written {@code @%pg} (half of the threads skip it)
 * @param family how its kernel is built
 */
record FormCase(String opcode, int formIndex, List<String> words, List<Operand> operands, boolean predicated,
                Family family) {
    FormCase {
        Objects.requireNonNull(opcode);
        words = List.copyOf(words);
        operands = List.copyOf(operands);
    }

    /** How the kernel around the instruction is built. */
    enum Family {
        /** Sources loaded from the input buffer, destinations stored to the output buffer. */
        ALU,
        /** Carry-flag arithmetic: the carry is set from an input first and read back after. */
        CARRY,
        /** Loads, stores and atomics on a per-thread location of one state space. */
        MEMORY,
        /** Warp-wide and block-wide instructions: every thread of the block executes them unguarded. */
        WARP,
        /** Branches: the instruction chooses which of two or three stores runs. */
        BRANCH
    }

    /** What an operand is written as. */
    enum Shape { REGISTER, IMMEDIATE, VECTOR, SINK, ADDRESS, SPECIAL, LABEL, SYMBOL }

    /**
     * One operand.
     *
     * @param dest whether the instruction writes it
     * @param shape how it is written
     * @param type the type of its value (the register's type for registers; a bit type of the same size when the
     *     value type cannot be declared)
     * @param length the number of registers of a vector, else 1
     * @param immediate the bits of an immediate
     * @param paired whether it is joined to the previous operand by {@code |}
     * @param address the address form of an {@link Shape#ADDRESS} operand
     */
    record Operand(boolean dest, Shape shape, PtxType type, int length, long immediate, boolean paired,
                   Address address) {
        static Operand register(boolean dest, PtxType type) {
            return new Operand(dest, Shape.REGISTER, type, 1, 0, false, null);
        }

        static Operand immediate(PtxType type, long bits) {
            return new Operand(false, Shape.IMMEDIATE, type, 1, bits, false, null);
        }

        static Operand vector(boolean dest, PtxType type, int n) {
            return new Operand(dest, Shape.VECTOR, type, n, 0, false, null);
        }

        Operand asPaired() {
            return new Operand(dest, shape, type, length, immediate, true, address);
        }

        Operand withShape(Shape s, long imm) {
            return new Operand(dest, s, type, length, imm, paired, address);
        }

        Operand withAddress(Address a) {
            return new Operand(dest, Shape.ADDRESS, type, length, immediate, paired, a);
        }

        /** Its kind in a form key: {@code r}, {@code p}, {@code i}, {@code v4}, {@code _}, an address form. */
        String code() {
            return switch (shape) {
                case REGISTER -> type == PtxType.PRED ? "p" : "r";
                case IMMEDIATE -> "i";
                case VECTOR -> "v" + length;
                case SINK -> "_";
                case ADDRESS -> address.code();
                case SPECIAL -> "%sreg";
                case LABEL -> "L";
                case SYMBOL -> "sym";
            };
        }
    }

    /** The base of an address operand. */
    enum Base {
        /** A 64-bit register ({@code [%rd]}). */
        REG64,
        /** A 32-bit register ({@code [%r]}, shared and local windows). */
        REG32,
        /** A variable's name ({@code [sbuf+8]}). */
        SYMBOL
    }

    /**
     * An address: the state space of the memory the instruction reaches (what the kernel allocates; "generic" is
     * a global buffer reached through a generic address), its base and its offset.
     *
     * @param offset the constant written after the base; {@code written} false for a plain {@code [%rd]}
     */
    record Address(String space, Base base, long offset, boolean written) {
        String code() {
            String b = switch (base) {
                case REG64 -> "rd";
                case REG32 -> "r";
                case SYMBOL -> "sym";
            };
            String at = space.startsWith("generic:") ? "@" + space.substring(8) : "";
            return "[" + b + (written ? (offset < 0 ? "-" + (-offset) : "+" + offset) : "") + "]" + at;
        }
    }

    /** The instruction without operands: {@code add.sat.s32}. */
    String instruction() {
        StringBuilder sb = new StringBuilder(opcode);
        words.forEach(w -> sb.append('.').append(w));
        return sb.toString();
    }

    /**
     * The form's name: the instruction and its operand kinds ({@code add.s32 r, r, i}; {@code @p} when
     * predicated; immediates by kind, not value).
     */
    String key() {
        StringBuilder sb = new StringBuilder(predicated ? "@p " : "").append(instruction());
        for (int i = 0; i < operands.size(); i++) {
            Operand o = operands.get(i);
            sb.append(i == 0 ? " " : o.paired() ? "|" : ", ").append(o.code());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return key();
    }
}
