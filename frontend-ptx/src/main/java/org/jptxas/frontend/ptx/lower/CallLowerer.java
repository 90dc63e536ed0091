package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * {@code call{.uni} (r...), f, (a...)} to a {@code .func} of the module: an Ori call pseudo-instruction
 * {@code CALL.REL.NOINC} whose destinations are the call site's return {@code .param} registers and whose sources
 * are the target ({@link Sym.Kind#FUNCTION}) followed by the argument {@code .param} registers, in PTX order.
 *
 * <p>The pseudo form exists only between lowering and {@link ModuleInliner}, which replaces every such call by the
 * callee's body (arguments and results become register copies, {@code ret} a branch to the continuation). An
 * indirect call (through a register and a prototype) has the 64-bit function address as its first source and stays
 * a true call ({@link CallSequences}).
 */
@AutoService(InstructionLowerer.class)
public final class CallLowerer implements InstructionLowerer {
    /** The modifiers of the call pseudo-instruction (those of ptxas's {@code CALL.REL.NOINC}). */
    static final List<String> CALL_MODS = List.of("REL", "NOINC");

    @Override
    public Set<String> opcodes() {
        return Set.of("call");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        Operand.ParenList results = null;
        Operand.ParenList args = null;
        String target = null;
        Src indirect = null;
        for (Operand o : ops) {
            if (o instanceof Operand.ParenList list) {
                if (target == null && indirect == null) {
                    results = list;
                } else if (args == null) {
                    args = list;
                }
            } else if (target == null && indirect == null) {
                if (o instanceof Expr.SymbolRef ref
                        && cx.resolved().symbolOf(ref).orElse(null) instanceof Symbol.Function fn) {
                    target = fn.name();
                } else if (o instanceof Expr.SymbolRef ref
                        && cx.resolved().symbolOf(ref).orElse(null) instanceof Symbol.Variable v
                        && v.space() == StateSpace.REG) {
                    indirect = Src.of(SyncOperands.register(cx, o, PtxType.B64)); // through a function address
                } else {
                    throw cx.unsupported("indirect call");
                }
            } else if (o instanceof Expr.SymbolRef) {
                // a prototype or call-targets list after a direct call: nothing to do
                continue;
            }
        }
        if (target == null && indirect == null) {
            throw cx.unsupported("call without a target");
        }
        List<Reg> dsts = new ArrayList<>();
        if (results != null) {
            for (Operand r : results.elements()) {
                dsts.add((Reg) value(cx, r, true).value());
            }
        }
        List<Src> srcs = new ArrayList<>();
        srcs.add(indirect != null ? indirect : Src.of(new Sym(target, Sym.Kind.FUNCTION)));
        if (args != null) {
            for (Operand a : args.elements()) {
                java.util.Optional<List<Src>> wide = wideParamArgument(cx, a);
                if (wide.isPresent()) {
                    srcs.addAll(wide.get());
                } else {
                    srcs.add(value(cx, a, false));
                }
            }
        }
        cx.emit("CALL", CALL_MODS, dsts, srcs);
    }

    /** A call-site {@code .param} variable larger than 16 bytes: its register tuples, in word order. */
    private static java.util.Optional<List<Src>> wideParamArgument(LoweringContext cx, Operand o) {
        if (o instanceof Expr.SymbolRef ref && cx.resolved().symbolOf(ref).orElse(null) instanceof Symbol.Variable v
                && v.space() == StateSpace.PARAM) {
            List<org.jptxas.ori.ir.Reg> regs = cx.paramRegisters(ref);
            if (regs.size() > 1) {
                return java.util.Optional.of(regs.stream().map(Src::of).toList());
            }
        }
        return java.util.Optional.empty();
    }

    /** A call-site {@code .param} variable's register, or (old style) a register or immediate argument. */
    private static Src value(LoweringContext cx, Operand o, boolean result) throws CompilationException {
        if (o instanceof Expr.SymbolRef ref) {
            Symbol sym = cx.resolved().symbolOf(ref).orElse(null);
            if (sym instanceof Symbol.Variable v) {
                if (v.space() == StateSpace.PARAM) {
                    return Src.of(cx.paramRegister(ref));
                }
                PtxType t = v.type();
                return result ? Src.of(cx.dst(o, t)) : Src.of(SyncOperands.register(cx, o, t));
            }
        }
        if (result) {
            throw cx.unsupported("call result operand " + o);
        }
        return Src.of(SyncOperands.register(cx, o, PtxType.B32));
    }
}
