package org.jptxas.frontend.ptx.isa;

/** The syntactic shape of one instruction operand, as the parser sees it. */
public enum OperandShape {
    /** A scalar register or register-like variable ({@code %r1}, a {@code .reg} array element). */
    REGISTER,
    /** A predicate register ({@code %p}), possibly negated where the instruction allows it. */
    PREDICATE,
    /** A brace-enclosed vector of registers ({@code {%r1, %r2}}). */
    VECTOR,
    /** An integer literal or constant integer expression. */
    IMMEDIATE_INT,
    /** A floating-point literal ({@code 1.0}, {@code 0f3F800000}, {@code 0d...}). */
    IMMEDIATE_FLOAT,
    /** A bracketed address expression ({@code [%rd1+8]}, {@code [sym]}). */
    ADDRESS,
    /** A label (branch target). */
    LABEL,
    /** A bare non-register symbol: a variable, function or parameter name used as a value. */
    SYMBOL,
    /** The label of a {@code .branchtargets} table. */
    BRANCH_TARGETS,
    /** The sink operand {@code _}. */
    SINK,
    /** A special register such as {@code %tid.x} or {@code %clock64}. */
    SPECIAL_REGISTER,
    /** A parenthesised parameter list of a {@code call}. */
    PARAM_LIST,
    /** A texture, sampler or surface reference. */
    TEXTURE_REF
}
