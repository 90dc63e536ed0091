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
 * {@code ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 {d...}, [a]} ({@link MatrixAccess}): one
 * {@code LDSM.16.M88[.2|.4]} ({@code .MT88} transposed) into a tuple of as many registers, copied to the
 * destinations, as ptxas writes it from sm_75 on. A generic address (no state space) becomes a shared one as
 * {@code cvta.to.shared} makes it ({@link AddressLowerer#windowOffset}).
 */
@AutoService(InstructionLowerer.class)
public final class MatrixLoadLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("ldmatrix");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MatrixAccess access = MatrixAccess.of(insn, cx, 0, 1);
        int count = access.count();
        List<Operand> elements = access.fragments();
        Reg tuple = cx.newReg(RegFile.R, count);
        cx.emit("LDSM", access.modifiers(), List.of(tuple), List.of(Src.of(access.address())));
        for (int k = 0; k < count; k++) {
            if (elements.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg d = cx.dst(elements.get(k), PtxType.B32);
            cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(access.part(tuple, k))));
        }
    }
}
