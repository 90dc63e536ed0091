package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code stmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 [a], {s...}} (sm_90): the sources copied
 * into a tuple of as many registers, then one {@code STSM.16.M88[.2|.4]} ({@code .MT88} transposed), as ptxas 13
 * writes it. A generic address becomes a shared one as {@code cvta.to.shared} makes it.
 */
@AutoService(InstructionLowerer.class)
public final class MatrixStoreLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("stmatrix");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MatrixAccess access = MatrixAccess.of(insn, cx, 1, 0);
        int count = access.count();
        List<Operand> elements = access.fragments();
        Addr addr = access.address();
        if (addr.base().isZero()) { // a symbol: STSM has no [imm] form (nvdisasm leaves RZ out of the address)
            Reg r = cx.newReg(RegFile.R, 1);
            cx.emit("MOV", List.of(), List.of(r), List.of(Ptx.imm(addr.offset() & 0xffffffffL)));
            addr = Addr.of(r, 0);
        }
        Reg tuple = cx.newReg(RegFile.R, count);
        for (int k = 0; k < count; k++) {
            cx.emit("MOV", List.of(), List.of(access.part(tuple, k)),
                    List.of(cx.src(elements.get(k), PtxType.B32)));
        }
        cx.emit("STSM", access.modifiers(), List.of(), List.of(Src.of(addr), Src.of(tuple)));
    }
}
