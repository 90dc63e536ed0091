package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Src;

/**
 * {@code bra}, {@code ret}, {@code exit}: BRA to the label's block, EXIT in kernels, RET in device functions;
 * {@code brx.idx}: BRX over the table's entries (code generation's {@code JumpTables} makes the table).
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
     * {@code brx.idx index, table}: to entry {@code index} of the {@code .branchtargets} table. A constant index is a
     * direct branch (an index past the table, undefined in the PTX ISA, takes the last entry); a register index is
     * {@code BRX index, entry...}, a 32-bit index with one block label per table entry, which code generation turns
     * into ptxas's load from a jump table in constant bank 2 (or a compare-and-branch chain where it cannot).
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
            List<Src> srcs = new ArrayList<>(names.size() + 1);
            srcs.add(index);
            for (String name : names) {
                srcs.add(Src.of(target(cx, ref, name).ref()));
            }
            cx.emit("BRX", List.of(), List.of(), srcs);
        }
        cx.startBlock(done);
    }

    private static BasicBlock target(LoweringContext cx, Expr.SymbolRef table, String label) {
        return cx.branchTarget(new Expr.SymbolRef(table.pos(), label, null));
    }
}
