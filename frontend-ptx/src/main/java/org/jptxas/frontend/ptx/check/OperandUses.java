package org.jptxas.frontend.ptx.check;

import java.util.IdentityHashMap;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.isa.OperandShape;
import org.jptxas.frontend.ptx.isa.OperandUse;

/**
 * What the instruction table sees of an operand: its shape (register, immediate, address, label...) and declared
 * type, read from the names the checker resolved. Kept apart from {@link PtxChecker} because it depends on nothing
 * but the resolved names, while the checker walks the module.
 */
final class OperandUses {
    private final IdentityHashMap<Expr.SymbolRef, Symbol> resolved;

    /** {@code resolved} is the checker's own map, read as names get resolved. */
    OperandUses(IdentityHashMap<Expr.SymbolRef, Symbol> resolved) {
        this.resolved = resolved;
    }

    OperandUse of(Operand o) {
        if (o instanceof Operand.Address) {
            return OperandUse.of(OperandShape.ADDRESS);
        }
        if (o instanceof Operand.Sink) {
            return OperandUse.of(OperandShape.SINK);
        }
        if (o instanceof Operand.ParenList) {
            return OperandUse.of(OperandShape.PARAM_LIST);
        }
        if (o instanceof Operand.Pair p) {
            return of(p.first());
        }
        if (o instanceof Operand.Vector v) {
            String type = null;
            for (Operand e : v.elements()) {
                OperandUse u = of(e);
                if (u.declaredType() != null) {
                    type = u.declaredType();
                    break;
                }
            }
            return new OperandUse(OperandShape.VECTOR, type, v.elements().size());
        }
        return exprUse((Expr) o);
    }

    private OperandUse exprUse(Expr e) {
        if (e instanceof Expr.IntLit lit) {
            return OperandUse.immediate(lit.value());
        }
        if (e instanceof Expr.FloatLit f) {
            return new OperandUse(OperandShape.IMMEDIATE_FLOAT, f.form() == Expr.FloatForm.HEX_F32 ? "f32" : "f64", 0);
        }
        if (e instanceof Expr.SymbolRef s) {
            return symbolUse(s);
        }
        if (e instanceof Expr.Unary u) {
            if (u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.IntLit lit) {
                return OperandUse.immediate(-lit.value()); // ptxas checks the value's range with its sign
            }
            OperandUse inner = exprUse(u.operand());
            if (u.op() == Expr.UnaryOp.NOT && inner.shape() == OperandShape.PREDICATE) {
                return inner;
            }
            return inner.shape() == OperandShape.IMMEDIATE_INT || inner.shape() == OperandShape.IMMEDIATE_FLOAT
                    ? inner : OperandUse.of(OperandShape.SYMBOL);
        }
        return containsSymbol(e) ? OperandUse.of(OperandShape.SYMBOL) : OperandUse.of(OperandShape.IMMEDIATE_INT);
    }

    private static boolean containsSymbol(Expr e) {
        if (e instanceof Expr.SymbolRef || e instanceof Expr.Apply) {
            return true;
        }
        if (e instanceof Expr.Unary u) {
            return containsSymbol(u.operand());
        }
        if (e instanceof Expr.Binary b) {
            return containsSymbol(b.left()) || containsSymbol(b.right());
        }
        if (e instanceof Expr.Conditional c) {
            return containsSymbol(c.condition()) || containsSymbol(c.ifTrue()) || containsSymbol(c.ifFalse());
        }
        return false;
    }

    private OperandUse symbolUse(Expr.SymbolRef s) {
        Symbol sym = resolved.get(s);
        if (sym == null) {
            return OperandUse.of(OperandShape.SYMBOL);
        }
        if (sym instanceof Symbol.Variable v) {
            String type = v.type().ptxName();
            if (v.type().isOpaque()) {
                return new OperandUse(OperandShape.TEXTURE_REF, type, 0);
            }
            if (v.space() != StateSpace.REG) {
                return new OperandUse(OperandShape.SYMBOL, type, 0);
            }
            if (v.type() == PtxType.PRED) {
                return new OperandUse(OperandShape.PREDICATE, type, 0);
            }
            return v.vectorLength() > 0 && s.component() == null
                    ? new OperandUse(OperandShape.VECTOR, type, v.vectorLength())
                    : new OperandUse(OperandShape.REGISTER, type, 0);
        }
        if (sym instanceof Symbol.Special sp) {
            if (sp.register() == SpecialRegister.WARP_SZ) {
                return OperandUse.of(OperandShape.IMMEDIATE_INT); // a named constant (32), not a register
            }
            return new OperandUse(OperandShape.SPECIAL_REGISTER, sp.type().ptxName(), 0);
        }
        if (sym instanceof Symbol.Label) {
            return OperandUse.of(OperandShape.LABEL);
        }
        if (sym instanceof Symbol.BranchTargets) {
            return OperandUse.of(OperandShape.BRANCH_TARGETS);
        }
        return OperandUse.of(OperandShape.SYMBOL);
    }
}
