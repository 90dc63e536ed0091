package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code movmatrix.sync.aligned.m8n8.trans.b16 d, a} (sm_75 on): the warp's 8 x 8 matrix of 16-bit elements, each
 * lane holding two of one row in the {@code ldmatrix} fragment layout, transposed across the lanes by one
 * {@code MOVM.16.MT88 Rd, Ra}, as ptxas writes it.
 */
@AutoService(InstructionLowerer.class)
public final class MatrixTransposeLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("movmatrix");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!insn.hasModifier("m8n8") || !insn.hasModifier("trans") || !insn.hasModifier("b16")
                || insn.operands().size() != 2) {
            throw cx.unsupported("shape or type");
        }
        Operand dst = insn.operands().get(0);
        Src a = cx.src(insn.operands().get(1), PtxType.B32);
        Reg t = cx.newReg(RegFile.R, 1);
        cx.emit("MOVM", List.of("16", "MT88"), List.of(t), List.of(a));
        if (!(dst instanceof Operand.Sink)) {
            cx.emit("MOV", List.of(), List.of(cx.dst(dst, PtxType.B32)), List.of(Src.of(t)));
        }
    }
}
