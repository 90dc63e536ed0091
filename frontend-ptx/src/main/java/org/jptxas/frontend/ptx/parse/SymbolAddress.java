package org.jptxas.frontend.ptx.parse;

import java.util.Optional;
import org.jptxas.frontend.ptx.ast.Expr;

/**
 * A constant expression that is a symbol's address plus a constant: {@code x}, {@code generic(x)}, {@code x+N},
 * {@code N+x}, {@code x-N}, as variable initializers write addresses.
 */
public record SymbolAddress(String symbol, long addend) {
    /**
     * {@code e} as a symbol's address plus a constant, or empty when it names no symbol that way.
     *
     * @throws ConstantEvaluator.NotConstantException when the constant added to a symbol is not a constant
     */
    public static Optional<SymbolAddress> of(Expr e) throws ConstantEvaluator.NotConstantException {
        if (e instanceof Expr.SymbolRef s && s.component() == null) {
            return Optional.of(new SymbolAddress(s.name(), 0));
        }
        if (e instanceof Expr.Apply a && a.function().equals("generic") && a.arguments().size() == 1) {
            return of(a.arguments().get(0));
        }
        if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
            Optional<SymbolAddress> left = of(b.left());
            if (left.isPresent()) {
                long n = ConstantEvaluator.evaluate(b.right());
                return Optional.of(new SymbolAddress(left.get().symbol(),
                        b.op() == Expr.BinaryOp.ADD ? left.get().addend() + n : left.get().addend() - n));
            }
            Optional<SymbolAddress> right = b.op() == Expr.BinaryOp.ADD ? of(b.right()) : Optional.empty();
            if (right.isPresent()) {
                return Optional.of(new SymbolAddress(right.get().symbol(),
                        right.get().addend() + ConstantEvaluator.evaluate(b.left())));
            }
        }
        return Optional.empty();
    }
}
