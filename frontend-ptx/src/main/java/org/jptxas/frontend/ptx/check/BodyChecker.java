package org.jptxas.frontend.ptx.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.BranchTargetsDecl;
import org.jptxas.frontend.ptx.ast.CallPrototypeDecl;
import org.jptxas.frontend.ptx.ast.CallTargetsDecl;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.LocDirective;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/** Checks one function body; labels are scoped to their block and may be used before their definition. */
final class BodyChecker {
    private final PtxChecker module;
    private final Set<String> declaredInBody;
    private final Set<String> declaredSoFar = new HashSet<>();

    BodyChecker(PtxChecker module, Set<String> declaredInBody) {
        this.module = module;
        this.declaredInBody = declaredInBody;
    }

    boolean declaredLater(String name) {
        return declaredInBody.contains(name) && !declaredSoFar.contains(name);
    }

    void block(Block b, Scope parent) {
        Scope scope = new Scope(parent);
        for (Statement s : b.statements()) {
            Symbol label = null;
            if (s instanceof LabelDef l) {
                label = new Symbol.Label(l);
            } else if (s instanceof CallPrototypeDecl c) {
                label = new Symbol.Prototype(c);
            } else if (s instanceof CallTargetsDecl c) {
                label = new Symbol.CallTargets(c);
            } else if (s instanceof BranchTargetsDecl bt) {
                label = new Symbol.BranchTargets(bt);
            }
            if (label != null && scope.declare(label) != null) {
                module.error(s.pos(), "Duplicate definition of label '" + label.name() + "'");
            }
        }
        for (Statement s : b.statements()) {
            if (s instanceof VariableDecl v) {
                if (v.space() == StateSpace.SREG) {
                    module.fatal(v.pos(), "Parsing error near '.sreg': syntax error");
                }
                module.declarationRules(v);
                module.declareVariables(v, scope);
                for (Declarator d : v.declarators()) {
                    declaredSoFar.add(d.name());
                    if (d.initializer() != null) {
                        module.initializer(d.initializer(), scope);
                    }
                }
            } else if (s instanceof Block inner) {
                block(inner, scope);
            } else if (s instanceof Instruction i) {
                instruction(i, scope);
            } else if (s instanceof CallPrototypeDecl c) {
                c.tuning().forEach(module::tuningGates);
            } else if (s instanceof CallTargetsDecl c) {
                for (String target : c.targets()) {
                    if (!(PtxChecker.lookup(target, scope) instanceof Symbol.Function)) {
                        module.error(c.pos(), "Unknown symbol '" + target + "'");
                    }
                }
            } else if (s instanceof BranchTargetsDecl t) {
                for (String target : t.targets()) {
                    if (!(PtxChecker.lookup(target, scope) instanceof Symbol.Label)) {
                        module.error(t.pos(), "Unknown symbol '" + target + "'");
                    }
                }
            } else if (s instanceof LocDirective l) {
                locNumbers(l);
            }
        }
    }

    /** ptxas reads a {@code .loc}'s file, line and column (and inlined_at's) as 32-bit unsigned numbers. */
    private void locNumbers(LocDirective l) {
        List<Long> numbers = new ArrayList<>(List.of(l.file(), l.line(), l.column()));
        if (l.inlinedAt() != null) {
            numbers.addAll(List.of(l.inlinedAt().file(), l.inlinedAt().line(), l.inlinedAt().column()));
        }
        if (numbers.stream().anyMatch(n -> n < 0 || n > 0xffffffffL)) {
            module.error(l.pos(), "Constant overflow");
        }
    }

    private void instruction(Instruction i, Scope scope) {
        if (i.guard() != null) {
            Symbol g = PtxChecker.lookup(i.guard().predicate(), scope);
            if (g == null) {
                module.error(i.guard().pos(), "Unknown symbol '" + i.guard().predicate() + "'");
            } else if (!(g instanceof Symbol.Variable v && v.type() == PtxType.PRED)) {
                module.error(i.guard().pos(), "Predicate expression expected");
            }
        }
        for (Operand o : i.operands()) {
            if (!(i.opcode().equals("call") && o == callTargetOperand(i))) {
                operand(o, scope);
            }
        }
        if (i.opcode().equals("call")) {
            callTarget(i, scope);
        }
        VideoSelectors.check(i, module::error);
        storedVectorTypes(i);
        module.addressSpace(i);
        ImmediateAddresses.check(i, module::error);
        if (i.opcode().equals("cvta") && i.modifiers().contains("u32")) {
            module.thirtyTwoBitAddress(i.pos()); // a 32-bit generic address: ptxas 13 compiles only 64-bit ones
        }
        if (!hasUnresolvedName(i)) {
            module.isaCheck(i); // with an unknown name the operand shapes are guesses: no follow-on noise
        }
    }

    /** ptxas refuses an integer literal among the elements of a vector {@code st} of a floating-point type. */
    private void storedVectorTypes(Instruction i) {
        if (!i.opcode().equals("st") || i.operands().size() < 2
                || !(i.operands().get(1) instanceof Operand.Vector v)) {
            return;
        }
        boolean floating = i.modifiers().stream().map(PtxType::fromName).flatMap(java.util.Optional::stream)
                .anyMatch(t -> t == PtxType.F16 || t == PtxType.BF16 || t == PtxType.F32 || t == PtxType.F64);
        if (floating && v.elements().stream().anyMatch(e -> e instanceof Expr.IntLit)) {
            module.error(i.pos(), "Vector with elements of different types are not allowed in st instruction");
        }
    }

    /** Argument count, size and alignment against the callee's formal parameters (ptxas's wording). */
    private void callSignature(Instruction call, FunctionDecl callee) {
        List<Operand> ops = call.operands();
        boolean hasReturns = !ops.isEmpty() && ops.get(0) instanceof Operand.ParenList;
        List<Operand> rets = hasReturns ? ((Operand.ParenList) ops.get(0)).elements() : List.of();
        int argsAt = hasReturns ? 2 : 1;
        List<Operand> args = ops.size() > argsAt && ops.get(argsAt) instanceof Operand.ParenList p
                ? p.elements() : List.of();
        if (rets.size() != callee.returns().size() || args.size() != callee.params().size()) {
            module.error(call.pos(), "Call has wrong number of parameters");
            return;
        }
        for (int k = 0; k < rets.size(); k++) {
            argumentMatches(call, rets.get(k), callee.returns().get(k));
        }
        for (int k = 0; k < args.size(); k++) {
            argumentMatches(call, args.get(k), callee.params().get(k));
        }
    }

    private void argumentMatches(Instruction call, Operand actual, VariableDecl formal) {
        Symbol named = actual instanceof Expr.SymbolRef ref ? module.resolved.get(ref) : null;
        if (named != null && !(named instanceof Symbol.Variable)) {
            // a function, label or prototype name passed as a value: ptxas names its state space
            module.error(call.pos(), "Call argument '" + ((Expr.SymbolRef) actual).name() + "' has illegal state space");
            return;
        }
        if (!(named instanceof Symbol.Variable v) || v.space() != StateSpace.PARAM || formal.space() != StateSpace.PARAM) {
            return; // registers and immediates are converted by ptxas as needed
        }
        Declarator fd = formal.declarators().get(0);
        long actualSize = PtxChecker.byteSize(v.decl(), v.declarator());
        long formalSize = PtxChecker.byteSize(formal, fd);
        if (actualSize > 0 && formalSize > 0 && actualSize != formalSize) {
            module.error(call.pos(), "Type of argument does not match formal parameter '" + fd.name() + "'");
        }
        if (PtxChecker.alignment(v.decl()) != PtxChecker.alignment(formal)) {
            module.error(call.pos(), "Alignment of argument does not match formal parameter '" + fd.name() + "'");
        }
    }

    private boolean hasUnresolvedName(Instruction i) {
        for (Operand o : i.operands()) {
            if (unresolved(o)) {
                return true;
            }
        }
        return false;
    }

    private boolean unresolved(Operand o) {
        if (o instanceof Expr.SymbolRef s) {
            return !module.resolved.containsKey(s);
        }
        if (o instanceof Expr.Unary u) {
            return unresolved(u.operand());
        }
        if (o instanceof Expr.Binary b) {
            return unresolved(b.left()) || unresolved(b.right());
        }
        if (o instanceof Operand.Address a) {
            return a.parts().stream().anyMatch(this::unresolved);
        }
        if (o instanceof Operand.Vector v) {
            return v.elements().stream().anyMatch(this::unresolved);
        }
        if (o instanceof Operand.ParenList p) {
            return p.elements().stream().anyMatch(this::unresolved);
        }
        if (o instanceof Operand.Pair p) {
            return unresolved(p.first()) || unresolved(p.second());
        }
        return false;
    }

    private Operand callTargetOperand(Instruction call) {
        for (Operand o : call.operands()) {
            if (!(o instanceof Operand.ParenList)) {
                return o;
            }
        }
        return null;
    }

    private void callTarget(Instruction call, Scope scope) {
        for (Operand o : call.operands()) {
            if (o instanceof Operand.ParenList) {
                continue;
            }
            if (o instanceof Expr.SymbolRef s) {
                Symbol target = PtxChecker.lookup(s.name(), scope);
                if (target != null) {
                    module.resolved.put(s, target);
                }
                if (target == null) {
                    module.error(call.pos(), "Call to '" + s.name() + "' requires call prototype");
                    module.error(s.pos(), "Unknown symbol '" + s.name() + "'");
                } else if (target instanceof Symbol.Function f && f.decl().isEntry()) {
                    module.error(call.pos(), "Illegal call target, device function expected");
                } else if (target instanceof Symbol.Function f) {
                    callSignature(call, f.decl());
                }
            }
            return;
        }
    }

    private void operand(Operand o, Scope scope) {
        if (o instanceof Expr e) {
            module.resolveExpr(e, scope, this);
        } else if (o instanceof Operand.Address a) {
            a.parts().forEach(p -> operand(p, scope));
            a.parts().forEach(p -> labelsInAddress(p, scope));
        } else if (o instanceof Operand.Vector v) {
            v.elements().forEach(p -> operand(p, scope));
            v.elements().forEach(p -> negatedRegister(p, scope));
        } else if (o instanceof Operand.ParenList p) {
            p.elements().forEach(e -> operand(e, scope));
        } else if (o instanceof Operand.Pair p) {
            operand(p.first(), scope);
            operand(p.second(), scope);
        }
    }

    /** A vector's element is a register, a constant or the sink: {@code {%f1, -%f2}} is a syntax error to ptxas. */
    private void negatedRegister(Operand o, Scope scope) {
        if (o instanceof Expr.Unary u && u.operand() instanceof Expr.SymbolRef s
                && PtxChecker.lookup(s.name(), scope) instanceof Symbol.Variable v && v.space() == StateSpace.REG) {
            module.fatal(s.pos(), "Parsing error near '" + s.name() + "': syntax error");
        }
    }

    /** A label inside an address ({@code [%rd1+$L__BB0_9]}) is a syntax error to ptxas: no label has an address. */
    private void labelsInAddress(Operand o, Scope scope) {
        if (o instanceof Expr.SymbolRef s && PtxChecker.lookup(s.name(), scope) instanceof Symbol.Label) {
            module.fatal(s.pos(), "Parsing error near '" + s.name() + "': syntax error");
        } else if (o instanceof Expr.Unary u) {
            labelsInAddress(u.operand(), scope);
        } else if (o instanceof Expr.Binary b) {
            labelsInAddress(b.left(), scope);
            labelsInAddress(b.right(), scope);
        }
    }
}
