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
 * {@code elect.sync d|p, membermask} (sm_90): {@code ELECT Pp, URd, PT}, the elected lane moved to {@code d}
 * ({@code IMAD.U32 Rd, RZ, RZ, URd}); a sink {@code _} for d gives {@code URZ}. A partial member mask gets a
 * WARPSYNC first.
 */
@AutoService(InstructionLowerer.class)
public final class ElectLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("elect");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        Operand d = ops.get(0);
        Operand p;
        Operand mask;
        if (d instanceof Operand.Pair pair) {
            d = pair.first();
            p = pair.second();
            mask = ops.get(1);
        } else {
            p = ops.get(1);
            mask = ops.get(2);
        }
        WarpMasks.syncIfPartial(cx, mask, true);
        Reg pd = p instanceof Operand.Sink ? Reg.PT : cx.dst(p, PtxType.PRED);
        Reg lane = d instanceof Operand.Sink ? Reg.URZ : cx.newReg(RegFile.UR, 1);
        cx.emit("ELECT", List.of(), List.of(pd, lane), List.of(Src.of(Reg.PT)));
        if (!(d instanceof Operand.Sink)) {
            cx.emit("MOV", List.of(), List.of(cx.dst(d, PtxType.B32)), List.of(Src.of(lane)));
        }
    }
}
