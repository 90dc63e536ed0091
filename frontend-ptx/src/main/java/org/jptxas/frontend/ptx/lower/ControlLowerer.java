package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code bra}, {@code ret}, {@code exit}: BRA to the label's block, EXIT in kernels, RET in device functions;
 * {@code brx.idx}: a compare-and-branch per table entry (ptxas branches through a table in constant bank 2 with BRX,
 * which needs code addresses in the cubin's data; the chain reaches the same targets).
 */
@AutoService(InstructionLowerer.class)
public final class ControlLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("bra", "ret", "exit", "brx.idx");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        switch (insn.opcode()) {
            case "bra" -> {
                if (!(insn.operands().get(0) instanceof Expr.SymbolRef label)) {
                    throw cx.unsupported("indirect branch");
                }
                cx.emit("BRA", List.of(), List.of(), List.of(Src.of(cx.branchTarget(label).ref())));
            }
            case "exit" -> cx.emit("EXIT", List.of(), List.of(), List.of());
            case "ret" -> {
                if (cx.isKernel()) {
                    cx.emit("EXIT", List.of(), List.of(), List.of());
                } else {
                    cx.emit("RET", List.of("REL", "NODEC"), List.of(), List.of());
                }
            }
            default -> branchThroughTable(insn, cx);
        }
    }

    /**
     * {@code brx.idx index, table}: to entry {@code index} of the {@code .branchtargets} table; an index past the
     * table is undefined (PTX ISA), here it takes the last entry.
     */
    private static void branchThroughTable(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!(insn.operands().get(1) instanceof Expr.SymbolRef ref)
                || !(cx.resolved().symbolOf(ref).orElse(null) instanceof Symbol.BranchTargets table)) {
            throw cx.unsupported("brx.idx through something other than a .branchtargets table");
        }
        List<String> names = table.decl().targets();
        Src index = cx.src(insn.operands().get(0), PtxType.U32);
        BasicBlock done = cx.branchAroundGuard();
        if (index.value() instanceof Imm m) {
            int k = (int) Math.min(m.bits() & 0xffffffffL, names.size() - 1);
            cx.emit("BRA", List.of(), List.of(), List.of(Src.of(target(cx, ref, names.get(k)).ref())));
        } else {
            for (int k = 0; k < names.size() - 1; k++) {
                Reg hit = Ptx.pred(cx);
                cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(hit, Reg.PT), List.of(index, Ptx.imm(k), Ptx.pt()));
                cx.emit("BRA", List.of(), List.of(), List.of(Src.of(target(cx, ref, names.get(k)).ref())))
                        .setGuard(new Guard(hit, false));
                cx.startBlock(cx.newBlock());
            }
            cx.emit("BRA", List.of(), List.of(), List.of(Src.of(target(cx, ref, names.get(names.size() - 1)).ref())));
        }
        cx.startBlock(done);
    }

    private static BasicBlock target(LoweringContext cx, Expr.SymbolRef table, String label) {
        return cx.branchTarget(new Expr.SymbolRef(table.pos(), label, null));
    }
}
