package org.jptxas.frontend.ptx.check;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/**
 * How ptxas 13 types a variable's initial value. A constant expression is an integer, a float or an address (a
 * variable or function name, {@code generic(x)}, plus an integer); mixing integers and floats in one operator is an
 * error that keeps the left operand's kind, comparisons give integers, and {@code c ? a : b} takes integers only. The
 * initializer's braces follow the declaration (one level per array dimension, one for a vector, whose element count
 * must be exact), and each value must suit the element type: floats for {@code .f32/.f64}, integers for {@code .u/.s},
 * either for {@code .b}, addresses only for {@code .u32/.u64}; {@code .f16} takes no initial value at all and packed or
 * predicate types none that matches. A mismatch is fatal.
 */
final class InitializerTypes {
    /** Where diagnostics go: ptxas reports expression errors and goes on, and stops at a mismatch. */
    interface Sink {
        void error(SourcePos pos, String message);

        void fatal(SourcePos pos, String message);
    }

    private enum Kind {
        INTEGER, FLOAT, ADDRESS
    }

    private final VariableDecl decl;
    private final Sink sink;
    /** Whether expression errors are reported (once, in the first pass) or only typed. */
    private boolean reportExpressions;

    private InitializerTypes(VariableDecl decl, Sink sink) {
        this.decl = decl;
        this.sink = sink;
    }

    /** The expression errors of {@code d}'s initializer, in source order (ptxas reports them as it parses). */
    static void expressionErrors(VariableDecl decl, Declarator d, Sink sink) {
        InitializerTypes types = new InitializerTypes(decl, sink);
        types.reportExpressions = true;
        types.expressions(d.initializer());
    }

    /** Whether {@code d}'s initializer has the declaration's shape and element type; reports the first mismatch. */
    static boolean matches(VariableDecl decl, Declarator d, Sink sink) {
        if (decl.type() == PtxType.F16) {
            sink.fatal(d.pos(), "No initial value is allowed for .f16 type");
            return false;
        }
        return new InitializerTypes(decl, sink).shape(d.initializer(), d.dimensions(), 0);
    }

    private void expressions(Initializer init) {
        if (init instanceof Initializer.Value v) {
            kind(v.value());
        } else if (init instanceof Initializer.Aggregate a) {
            a.elements().forEach(this::expressions);
        }
    }

    private boolean shape(Initializer init, List<Long> dimensions, int level) {
        boolean vectorLevel = level == dimensions.size() && decl.vectorLength() > 0;
        if (level < dimensions.size() || vectorLevel) {
            if (!(init instanceof Initializer.Aggregate a) || a.elements().isEmpty()) {
                sink.fatal(init.pos(), "Initial value type mismatch");
                return false;
            }
            if (vectorLevel && a.elements().size() != decl.vectorLength()) {
                sink.fatal(a.elements().get(a.elements().size() - 1).pos(),
                        "Incorrect number of elements in vector initializer");
                return false;
            }
            for (Initializer e : a.elements()) {
                if (vectorLevel ? !scalar(e) : !shape(e, dimensions, level + 1)) {
                    return false;
                }
            }
            return true;
        }
        return scalar(init);
    }

    private boolean scalar(Initializer init) {
        if (!(init instanceof Initializer.Value v) || !suits(kind(v.value()))) {
            sink.fatal(init.pos(), "Initial value type mismatch");
            return false;
        }
        return true;
    }

    private boolean suits(Kind kind) {
        return switch (decl.type()) {
            case F32, F64 -> kind == Kind.FLOAT;
            case B8, B16, B32, B64, B128 -> kind != Kind.ADDRESS;
            case S8, S16, S32, S64, U8, U16 -> kind == Kind.INTEGER;
            case U32, U64 -> kind != Kind.FLOAT;
            default -> false;
        };
    }

    private Kind kind(Expr e) {
        if (e instanceof Expr.IntLit) {
            return Kind.INTEGER;
        }
        if (e instanceof Expr.FloatLit) {
            return Kind.FLOAT;
        }
        if (e instanceof Expr.Unary u) {
            return kind(u.operand());
        }
        if (e instanceof Expr.Conditional c) {
            for (Expr part : List.of(c.condition(), c.ifTrue(), c.ifFalse())) {
                if (kind(part) != Kind.INTEGER) {
                    expressionError(part.pos(), "Integer constant expression expected");
                }
            }
            return Kind.INTEGER;
        }
        if (e instanceof Expr.Binary b) {
            return binary(b);
        }
        return Kind.ADDRESS; // a name, or generic(name)
    }

    private Kind binary(Expr.Binary b) {
        Kind left = kind(b.left());
        Kind right = kind(b.right());
        if (left == Kind.ADDRESS || right == Kind.ADDRESS) {
            if (left == Kind.FLOAT || right == Kind.FLOAT) {
                expressionError(b.pos(), "Integer constant expression expected");
            }
            return Kind.ADDRESS;
        }
        if (left != right) {
            expressionError(b.pos(), "Constant expression type mismatch");
        }
        return switch (b.op()) {
            case LT, GT, LE, GE, EQ, NE, LAND, LOR -> Kind.INTEGER;
            default -> left;
        };
    }

    private void expressionError(SourcePos pos, String message) {
        if (reportExpressions) {
            sink.error(pos, message);
        }
    }
}
