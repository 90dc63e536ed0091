package org.jptxas.frontend.ptx.check;

import java.util.Set;
import java.util.function.BiConsumer;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.isa.PtxIsa;

/**
 * {@code ld.shared [16]}: ptxas takes a bare number as an address only in the local state space (a generic, global,
 * shared, const or param access needs a register or a variable to start from), in every instruction with a memory
 * operand ({@code cp.async}, {@code mbarrier}, {@code ldmatrix}, {@code prefetch}, ... as well as ld/st).
 */
final class ImmediateAddresses {
    private ImmediateAddresses() {}

    /** Instructions whose bracketed operands are not memory addresses (texture and surface tuples, call lists). */
    private static final Set<String> NOT_ADDRESSES = Set.of("tex", "tld4", "txq", "suld", "sust", "sured", "suq",
            "call", "istypep");

    static void check(Instruction i, BiConsumer<SourcePos, String> error) {
        if (NOT_ADDRESSES.contains(i.opcode()) || i.modifiers().contains("local")) {
            return;
        }
        for (Operand o : i.operands()) {
            if (o instanceof Operand.Address a && a.expression() != null && isConstant(a.expression())) {
                // (the name is looked up only here, for the few such operands: it is a table search)
                if (!PtxIsa.get().split(i.nameWords()).isEmpty()) { // an unknown name is the one error ptxas reports
                    error.accept(i.pos(), "Immediate addresses allowed only for .local state space");
                }
                return;
            }
        }
    }

    private static boolean isConstant(Expr e) {
        return e instanceof Expr.IntLit
                || e instanceof Expr.Unary u && isConstant(u.operand())
                || e instanceof Expr.Binary b && isConstant(b.left()) && isConstant(b.right())
                || e instanceof Expr.Conditional c && isConstant(c.condition()) && isConstant(c.ifTrue())
                        && isConstant(c.ifFalse());
    }
}
