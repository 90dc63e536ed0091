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
 * {@code shfl.sync.<mode>.b32 d[|p], a, b, c, membermask} (and the pre-6.0 form without {@code .sync} and mask):
 * {@code SHFL.<IDX|UP|DOWN|BFLY> P|PT, Rd, Ra, b, c}, b (lane/offset) and c (clamp | segment mask << 8) each an
 * immediate or a register exactly as PTX gives them; a zero reads as {@code RZ}, as ptxas prints it. The same on
 * sm_75, sm_80 and sm_90.
 */
@AutoService(InstructionLowerer.class)
public final class ShflLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("shfl");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        String mode = SyncOperands.first(insn, null, "idx", "up", "down", "bfly");
        if (mode == null) {
            throw cx.unsupported("no shuffle mode");
        }
        List<Operand> ops = insn.operands();
        Operand dst = ops.get(0);
        Operand predDst = null;
        if (dst instanceof Operand.Pair pair) {
            dst = pair.first();
            predDst = pair.second();
        }
        int i = 1;
        if (predDst == null && ops.size() == (insn.hasModifier("sync") ? 6 : 5)) {
            predDst = ops.get(i++); // the old 'd|p' written as two operands
        }
        Operand a = ops.get(i++);
        Operand b = ops.get(i++);
        Operand c = ops.get(i++);
        Operand mask = insn.hasModifier("sync") ? ops.get(i) : null;
        WarpMasks.syncIfPartial(cx, mask, false);
        Reg value = SyncOperands.register(cx, a, PtxType.B32);
        Src lane = SyncOperands.registerOrImmediate(cx, b, PtxType.U32);
        Src clamp = SyncOperands.registerOrImmediate(cx, c, PtxType.U32);
        Reg p = predDst == null || predDst instanceof Operand.Sink ? Reg.PT : cx.dst(predDst, PtxType.PRED);
        Reg d = dst instanceof Operand.Sink ? cx.newReg(RegFile.R, 1) : cx.dst(dst, PtxType.B32);
        cx.emit("SHFL", List.of(mode.toUpperCase()), List.of(p, d), List.of(Src.of(value), lane, clamp));
    }
}
