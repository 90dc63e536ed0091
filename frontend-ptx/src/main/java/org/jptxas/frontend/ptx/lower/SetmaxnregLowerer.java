package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.ori.diag.CompilationException;

/**
 * {@code setmaxnreg.{inc,dec}.sync.aligned.u32 N} (sm_90a): a hint that the warp's register allocation may grow or
 * shrink to N. jptxas keeps every warp at the kernel's one register count and emits nothing, which is what ptxas 13
 * does whenever it cannot determine the register count at entry (its C7508 "setmaxnreg ignored" note; with
 * {@code .maxnreg} it writes {@code WARPSYNC.ALL; USETMAXREG.DEALLOC.CTAPOOL N}, and for inc a loop on
 * {@code USETMAXREG.TRY_ALLOC.CTAPOOL UP0, N}). Ignoring is safe: no warp ever owns fewer registers than the code uses,
 * and no allocation waits for registers another warp must free. Emitting USETMAXREG needs register allocation to keep
 * the code after each dec within N registers, which it does not yet.
 */
@AutoService(InstructionLowerer.class)
public final class SetmaxnregLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("setmaxnreg");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!insn.modifiers().contains("inc") && !insn.modifiers().contains("dec")) {
            throw cx.unsupported("this setmaxnreg form");
        }
    }
}
