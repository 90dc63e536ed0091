package org.jptxas.tables.ptx;

/** The operand shapes a form of an instruction accepts in one operand position; each has a one-letter code in the table. */
public enum OperandKind {
    /** {@code r}: a scalar register of the operand's type. */
    REGISTER('r'),
    /** {@code d}: a register, or a vector of registers whose length is given by the instruction's {@code .vN} modifier. */
    DATA('d'),
    /** {@code V}: a vector of registers of any length. */
    VECTOR('V'),
    /** {@code p}: a predicate register. */
    PREDICATE('p'),
    /** {@code n}: an immediate of the operand's type (integer for integer/bit types, floating for float types). */
    TYPED_IMMEDIATE('n'),
    /** {@code i}: an integer immediate whatever the operand's type. */
    INT_IMMEDIATE('i'),
    /** {@code a}: a bracketed address. */
    ADDRESS('a'),
    /** {@code l}: a label. */
    LABEL('l'),
    /** {@code s}: a variable or function name used as a value. */
    SYMBOL('s'),
    /** {@code b}: the label of a {@code .branchtargets} table (brx.idx's; a plain label or variable is not one). */
    BRANCH_TARGETS('b'),
    /** {@code _}: the sink {@code _}. */
    SINK('_'),
    /** {@code x}: a special register. */
    SPECIAL_REGISTER('x'),
    /** {@code L}: a parenthesised parameter list. */
    PARAM_LIST('L'),
    /** {@code t}: a texture, sampler or surface reference. */
    TEXTURE('t');

    private final char code;

    OperandKind(char code) {
        this.code = code;
    }

    public char code() {
        return code;
    }

    public static OperandKind ofCode(char c) {
        for (OperandKind k : values()) {
            if (k.code == c) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown operand shape code '" + c + "'");
    }
}
