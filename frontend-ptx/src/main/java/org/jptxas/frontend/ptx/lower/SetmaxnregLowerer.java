package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code setmaxnreg.{inc,dec}.sync.aligned.u32 N} (sm_90a): the warp's register allocation shrinks or grows to N. As
 * ptxas 13 writes it when the function has a {@code .maxnreg} (the count every warp starts with):
 * <ul>
 * <li>dec: {@code NOP; USETMAXREG.DEALLOC.CTAPOOL N} (the registers from N on go back to the CTA's pool);</li>
 * <li>inc: {@code L: NOP; USETMAXREG.TRY_ALLOC.CTAPOOL UP, N; PLOP3.LUT P, PT, PT, PT, UP, 0x80, 0x0; @!P BRA L}
 * (retried until the pool has them).</li>
 * </ul>
 * Register allocation reads the USETMAXREG instructions: code after one uses only the registers it grants, and the
 * kernel's register count stays the {@code .maxnreg}. Without {@code .maxnreg} the count at entry is not known, and
 * ptxas ignores the instruction (its C7508 "setmaxnreg ignored" note); jptxas too.
 */
@AutoService(InstructionLowerer.class)
public final class SetmaxnregLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("setmaxnreg");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean inc = insn.modifiers().contains("inc");
        if (!inc && !insn.modifiers().contains("dec")) {
            throw cx.unsupported("this setmaxnreg form");
        }
        if (cx.maxnreg().isEmpty()) {
            return;
        }
        Src n = cx.src(insn.operands().get(0), PtxType.U32);
        if (!(n.value() instanceof Imm)) {
            throw cx.unsupported("a setmaxnreg count that is not a constant");
        }
        BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null;
        if (inc) {
            BasicBlock retry = cx.newBlock();
            cx.startBlock(retry);
            cx.emitUnguarded("NOP", List.of(), List.of(), List.of());
            Reg granted = cx.newReg(RegFile.UP, 1);
            cx.emitUnguarded("USETMAXREG", List.of("TRY_ALLOC", "CTAPOOL"), List.of(granted), List.of(n));
            Reg p = cx.newReg(RegFile.P, 1);
            cx.emitUnguarded("PLOP3", List.of("LUT"), List.of(p, Reg.PT),
                    List.of(Ptx.pt(), Ptx.pt(), Src.of(granted), Ptx.imm(0x80), Ptx.imm(0)));
            cx.emitUnguarded("BRA", List.of(), List.of(), List.of(Src.of(retry.ref()))).setGuard(new Guard(p, true));
            cx.startBlock(cx.newBlock());
        } else {
            cx.emitUnguarded("NOP", List.of(), List.of(), List.of());
            cx.emitUnguarded("USETMAXREG", List.of("DEALLOC", "CTAPOOL"), List.of(), List.of(n));
        }
        if (done != null) {
            cx.startBlock(done);
        }
    }
}
