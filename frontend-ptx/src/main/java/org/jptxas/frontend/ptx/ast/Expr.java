package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** A scalar operand or constant expression: literals, names, and C-like operators over them. */
public sealed interface Expr extends Operand {

    /** The written radix of an integer literal, kept so printing gives back the same spelling. */
    enum Radix {
        DECIMAL, HEX, OCTAL, BINARY
    }

    /**
     * An integer literal; {@code value} holds the 64 bits (a literal above {@code Long.MAX_VALUE} is negative here).
     *
     * @param unsigned whether a {@code U} suffix was written
     */
    record IntLit(SourcePos pos, long value, Radix radix, boolean unsigned) implements Expr {
    }

    /** How a float literal was written. */
    enum FloatForm {
        /** {@code 0f3F800000}: exactly 32 bits. */
        HEX_F32,
        /** {@code 0d3FF0000000000000}: exactly 64 bits. */
        HEX_F64,
        /** {@code 1.5}, {@code 1e-3}: a double. */
        DECIMAL
    }

    /**
     * A float literal. {@code bits} is the raw IEEE encoding: 32 bits for {@link FloatForm#HEX_F32}, else 64.
     */
    record FloatLit(SourcePos pos, FloatForm form, long bits) implements Expr {
        public double value() {
            return form == FloatForm.HEX_F32 ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
        }
    }

    /**
     * A name: register, variable, parameter, function, label or special register.
     *
     * @param component a vector component suffix ({@code %tid.x} → {@code x}), or {@code null}
     */
    record SymbolRef(SourcePos pos, String name, String component) implements Expr {
    }

    enum UnaryOp {
        NEG("-"), PLUS("+"), NOT("!"), COMPLEMENT("~");

        public final String text;

        UnaryOp(String text) {
            this.text = text;
        }
    }

    record Unary(SourcePos pos, UnaryOp op, Expr operand) implements Expr {
    }

    /** Binary operators with C precedence (higher binds tighter). */
    enum BinaryOp {
        MUL("*", 10), DIV("/", 10), REM("%", 10), ADD("+", 9), SUB("-", 9), SHL("<<", 8), SHR(">>", 8),
        LT("<", 7), GT(">", 7), LE("<=", 7), GE(">=", 7), EQ("==", 6), NE("!=", 6), AND("&", 5), XOR("^", 4),
        OR("|", 3), LAND("&&", 2), LOR("||", 1);

        public final String text;
        public final int precedence;

        BinaryOp(String text, int precedence) {
            this.text = text;
            this.precedence = precedence;
        }
    }

    record Binary(SourcePos pos, BinaryOp op, Expr left, Expr right) implements Expr {
    }

    /** {@code c ? a : b}. */
    record Conditional(SourcePos pos, Expr condition, Expr ifTrue, Expr ifFalse) implements Expr {
    }

    /** {@code generic(x)} in an initializer, or another function-like constant operator. */
    record Apply(SourcePos pos, String function, List<Expr> arguments) implements Expr {
        public Apply {
            arguments = List.copyOf(arguments);
        }
    }
}
