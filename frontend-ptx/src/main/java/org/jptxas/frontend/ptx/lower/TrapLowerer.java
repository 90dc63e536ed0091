package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Src;

/**
 * {@code trap}, {@code brkpt} and {@code nanosleep}. ptxas 13 emits {@code BPT.TRAP 0x1} for both trap and brkpt
 * (guarded ones behind a branch; a guarded BPT is the same), and {@code NANOSLEEP t} with t an immediate, a constant
 * bank operand or a register (sm_75 prints {@code NANOSLEEP.WARP}).
 */
@AutoService(InstructionLowerer.class)
public final class TrapLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("trap", "brkpt", "nanosleep");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (insn.opcode().equals("nanosleep")) {
            cx.emit("NANOSLEEP", List.of(), List.of(), List.of(cx.srcAllowingConstant(insn.operands().get(0), PtxType.U32)));
            return;
        }
        cx.emit("BPT", List.of("TRAP"), List.of(), List.of(Src.of(new Imm(1))));
    }
}
