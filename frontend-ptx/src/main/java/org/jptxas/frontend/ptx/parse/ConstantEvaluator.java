package org.jptxas.frontend.ptx.parse;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.SourcePos;

/** Evaluates constant integer expressions (64-bit, C semantics) such as array sizes and {@code .align} values. */
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
}
