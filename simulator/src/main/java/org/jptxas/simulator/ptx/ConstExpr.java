package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.Expr;

/** Evaluates integer constant expressions of PTX operands and initializers (C semantics on 64-bit values). */
final class ConstExpr {
    private ConstExpr() {}

    /** The value, or null when the expression names something that is not a constant. */
    static Long evaluate(Expr e) {
        if (e instanceof Expr.IntLit i) {
            return i.value();
        }
        if (e instanceof Expr.Unary u) {
            Long v = evaluate(u.operand());
            if (v == null) {
                return null;
            }
            return switch (u.op()) {
                case NEG -> -v;
                case PLUS -> v;
                case NOT -> v == 0 ? 1L : 0L;
                case COMPLEMENT -> ~v;
            };
        }
        if (e instanceof Expr.Binary b) {
            Long l = evaluate(b.left()), r = evaluate(b.right());
            if (l == null || r == null) {
                return null;
            }
            return switch (b.op()) {
                case MUL -> l * r;
                case DIV -> r == 0 ? null : l / r;
                case REM -> r == 0 ? null : l % r;
                case ADD -> l + r;
                case SUB -> l - r;
                case SHL -> l << r;
                case SHR -> l >> r;
                case LT -> l < r ? 1L : 0L;
                case GT -> l > r ? 1L : 0L;
                case LE -> l <= r ? 1L : 0L;
                case GE -> l >= r ? 1L : 0L;
                case EQ -> l.longValue() == r.longValue() ? 1L : 0L;
                case NE -> l.longValue() != r.longValue() ? 1L : 0L;
                case AND -> l & r;
                case XOR -> l ^ r;
                case OR -> l | r;
                case LAND -> l != 0 && r != 0 ? 1L : 0L;
                case LOR -> l != 0 || r != 0 ? 1L : 0L;
            };
        }
        if (e instanceof Expr.Conditional c) {
            Long k = evaluate(c.condition());
            return k == null ? null : k != 0 ? evaluate(c.ifTrue()) : evaluate(c.ifFalse());
        }
        return null;
    }
}
