package org.jptxas.frontend.ptx.check;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.isa.PtxIsa;

/**
 * A checked module: the model plus what the checker resolved, keyed by node identity (model records compare by
 * value, so two {@code %r1} references at different places are distinct keys only by identity).
 */
public final class ResolvedModule {
    private final PtxModule module;
    private final Map<Expr.SymbolRef, Symbol> symbols;
    private final Map<Instruction, PtxIsa.Split> splits;

    ResolvedModule(PtxModule module, IdentityHashMap<Expr.SymbolRef, Symbol> symbols,
            IdentityHashMap<Instruction, PtxIsa.Split> splits) {
        this.module = module;
        this.symbols = symbols;
        this.splits = splits;
    }

    public PtxModule module() {
        return module;
    }

    /** What {@code ref} (a node of this module) names; empty for names the checker did not resolve. */
    public Optional<Symbol> symbolOf(Expr.SymbolRef ref) {
        return Optional.ofNullable(symbols.get(ref));
    }

    /** The instruction's base opcode and modifiers as the instruction table splits them ({@code cp.async.bulk} ...). */
    public Optional<PtxIsa.Split> opcodeOf(Instruction instruction) {
        return Optional.ofNullable(splits.get(instruction));
    }
}
