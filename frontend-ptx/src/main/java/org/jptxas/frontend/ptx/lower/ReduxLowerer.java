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
 * {@code redux.sync.<op>.<type> d, a, m} (sm_80+): {@code REDUX.<op> URd, Ra} into a uniform register, then moved
 * to {@code d} ({@code IMAD.U32 Rd, RZ, RZ, URd} in ptxas's listing). Operation modifiers as nvdisasm prints them:
 * add.u32 {@code SUM}, add.s32 {@code SUM.S32}, min/max.u32 {@code MIN}/{@code MAX}, .s32 {@code MIN.S32}/
 * {@code MAX.S32}, and none (and), or {@code OR}, xor {@code XOR}. A partial member mask gets
 * {@code WARPSYNC.EXCLUSIVE m} first, as ptxas emits it. Before sm_80 (no REDUX; ptxas rejects redux there) and for
 * the sm_100a f32 forms: a named unsupported error.
 */
@AutoService(InstructionLowerer.class)
public final class ReduxLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("redux");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType type = SyncOperands.type(insn);
        if (type == PtxType.F32) {
            throw cx.unsupported("f32 reductions");
        }
        boolean signed = type == PtxType.S32;
        List<String> mods;
        if (insn.hasModifier("add")) {
            mods = signed ? List.of("SUM", "S32") : List.of("SUM");
        } else if (insn.hasModifier("min")) {
            mods = signed ? List.of("MIN", "S32") : List.of("MIN");
        } else if (insn.hasModifier("max")) {
            mods = signed ? List.of("MAX", "S32") : List.of("MAX");
        } else if (insn.hasModifier("and")) {
            mods = List.of();
        } else if (insn.hasModifier("or")) {
            mods = List.of("OR");
        } else if (insn.hasModifier("xor")) {
            mods = List.of("XOR");
        } else {
            throw cx.unsupported("no reduction operation");
        }
        List<Operand> ops = insn.operands();
        WarpMasks.syncIfPartial(cx, ops.get(2), true);
        Reg a = SyncOperands.register(cx, ops.get(1), PtxType.B32);
        Reg uniform = cx.newReg(RegFile.UR, 1);
        cx.emit("REDUX", mods, List.of(uniform), List.of(Src.of(a)));
        cx.emit("MOV", List.of(), List.of(cx.dst(ops.get(0), type)), List.of(Src.of(uniform)));
    }
}
