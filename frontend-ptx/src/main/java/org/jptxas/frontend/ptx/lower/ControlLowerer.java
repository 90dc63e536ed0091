package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Src;

/** {@code bra}, {@code ret}, {@code exit}: BRA to the label's block, EXIT in kernels, RET in device functions. */
@AutoService(InstructionLowerer.class)
public final class ControlLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("bra", "ret", "exit");
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
            default -> {
                if (cx.isKernel()) {
                    cx.emit("EXIT", List.of(), List.of(), List.of());
                } else {
                    cx.emit("RET", List.of("REL", "NODEC"), List.of(), List.of());
                }
            }
        }
    }
}
