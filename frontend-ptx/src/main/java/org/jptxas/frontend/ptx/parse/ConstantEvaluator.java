package org.jptxas.frontend.ptx.parse;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.SourcePos;

/**
 * Evaluates constant expressions (C semantics): integer ones (64-bit) such as array sizes and {@code .align} values,
 * and float ones (doubles) in initializers. An expression is a float one when its value is: a float literal, a sign
 * applied to one, or an arithmetic operator whose left operand is one (ptxas types a mixed operator, an error, by its
 * left operand); comparisons of floats are integers.
 */
public final class ConstantEvaluator {
    private ConstantEvaluator() {}

    /** The expression is not a constant integer expression. */
    public static final class NotConstantException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient SourcePos pos;

        NotConstantException(SourcePos pos, String message) {
            super(message, null, false, false);
            this.pos = pos;
        }

        public SourcePos pos() {
            return pos;
        }
    }

    public static long evaluate(Expr e) throws NotConstantException {
        if (e instanceof Expr.IntLit i) {
            return i.value();
        }
        if (e instanceof Expr.Unary u) {
            long v = evaluate(u.operand());
            return switch (u.op()) {
                case NEG -> -v;
                case PLUS -> v;
                case NOT -> v == 0 ? 1 : 0;
                case COMPLEMENT -> ~v;
            };
        }
        if (e instanceof Expr.Binary b) {
            if (comparison(b.op()) && (isFloat(b.left()) || isFloat(b.right()))) {
                return compare(b.op(), evaluateFloat(b.left()), evaluateFloat(b.right())) ? 1 : 0;
            }
            long l = evaluate(b.left());
            long r = evaluate(b.right());
            return switch (b.op()) {
                case MUL -> l * r;
                case DIV -> {
                    if (r == 0) {
                        throw new NotConstantException(b.pos(), "Division by zero in constant expression");
                    }
                    yield l / r;
                }
                case REM -> {
                    if (r == 0) {
                        throw new NotConstantException(b.pos(), "Division by zero in constant expression");
                    }
                    yield l % r;
                }
                case ADD -> l + r;
                case SUB -> l - r;
                case SHL -> l << r;
                case SHR -> l >> r;
                case LT -> l < r ? 1 : 0;
                case GT -> l > r ? 1 : 0;
                case LE -> l <= r ? 1 : 0;
                case GE -> l >= r ? 1 : 0;
                case EQ -> l == r ? 1 : 0;
                case NE -> l != r ? 1 : 0;
                case AND -> l & r;
                case XOR -> l ^ r;
                case OR -> l | r;
                case LAND -> l != 0 && r != 0 ? 1 : 0;
                case LOR -> l != 0 || r != 0 ? 1 : 0;
            };
        }
        if (e instanceof Expr.Conditional c) {
            return evaluate(c.condition()) != 0 ? evaluate(c.ifTrue()) : evaluate(c.ifFalse());
        }
        throw new NotConstantException(e.pos(), "Constant integer expression expected");
    }

    /** Whether {@code e} is a float expression (see the class comment). */
    public static boolean isFloat(Expr e) {
        if (e instanceof Expr.FloatLit) {
            return true;
        }
        if (e instanceof Expr.Unary u) {
            return (u.op() == Expr.UnaryOp.NEG || u.op() == Expr.UnaryOp.PLUS) && isFloat(u.operand());
        }
        return e instanceof Expr.Binary b && !comparison(b.op()) && isFloat(b.left());
    }

    /** The value of a float expression; an integer operand mixed in counts as its value. */
    public static double evaluateFloat(Expr e) throws NotConstantException {
        if (e instanceof Expr.FloatLit f) {
            return f.value();
        }
        if (!isFloat(e)) {
            return evaluate(e);
        }
        if (e instanceof Expr.Unary u) {
            double v = evaluateFloat(u.operand());
            return u.op() == Expr.UnaryOp.NEG ? -v : v;
        }
        Expr.Binary b = (Expr.Binary) e;
        double l = evaluateFloat(b.left());
        double r = evaluateFloat(b.right());
        return switch (b.op()) {
            case MUL -> l * r;
            case DIV -> l / r;
            case ADD -> l + r;
            case SUB -> l - r;
            default -> throw new NotConstantException(b.pos(), "Integer constant expression expected");
        };
    }

    private static boolean comparison(Expr.BinaryOp op) {
        return switch (op) {
            case LT, GT, LE, GE, EQ, NE -> true;
            default -> false;
        };
    }

    private static boolean compare(Expr.BinaryOp op, double l, double r) {
        return switch (op) {
            case LT -> l < r;
            case GT -> l > r;
            case LE -> l <= r;
            case GE -> l >= r;
            case EQ -> l == r;
            default -> l != r;
        };
    }
}
