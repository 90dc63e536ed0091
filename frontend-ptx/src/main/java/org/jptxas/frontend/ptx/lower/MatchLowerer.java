package org.jptxas.frontend.ptx.lower;

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
 * {@code match.any.sync.b32/.b64 d, a, m}: {@code MATCH.ANY[.U64] Rd, Ra}; {@code match.all.sync d[|p], a, m}:
 * {@code MATCH.ALL[.U64] Pp|PT, Rd, Ra} (sm_80/sm_90; ptxas's sm_75 code builds match.all from MATCH.ANY compared
 * with the active mask). Under a partial member mask, a WARPSYNC first and the match.any result ANDed with the mask.
 */
public final class MatchLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("match");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        PtxType type = insn.hasModifier("b64") ? PtxType.B64 : PtxType.B32;
        Operand mask = ops.get(2);
        WarpMasks.syncIfPartial(cx, mask, false);
        Reg a = SyncOperands.register(cx, ops.get(1), type);
        List<String> mods = type == PtxType.B64 ? List.of(insn.hasModifier("all") ? "ALL" : "ANY", "U64")
                : List.of(insn.hasModifier("all") ? "ALL" : "ANY");
        Operand dst = ops.get(0);
        if (insn.hasModifier("all")) {
            Reg p = Reg.PT;
            if (dst instanceof Operand.Pair pair) {
                dst = pair.first();
                p = pair.second() instanceof Operand.Sink ? Reg.PT : cx.dst(pair.second(), PtxType.PRED);
            }
            Reg d = dst instanceof Operand.Sink ? cx.newReg(RegFile.R, 1) : cx.dst(dst, PtxType.B32);
            cx.emit("MATCH", mods, List.of(p, d), List.of(Src.of(a)));
            return;
        }
        if (WarpMasks.isFull(mask)) {
            cx.emit("MATCH", mods, List.of(cx.dst(dst, PtxType.B32)), List.of(Src.of(a)));
            return;
        }
        Reg all = cx.newReg(RegFile.R, 1);
        cx.emit("MATCH", mods, List.of(all), List.of(Src.of(a)));
        cx.emit("MOV", List.of(), List.of(cx.dst(dst, PtxType.B32)), List.of(Src.of(WarpMasks.restrict(cx, all, mask))));
    }
}
