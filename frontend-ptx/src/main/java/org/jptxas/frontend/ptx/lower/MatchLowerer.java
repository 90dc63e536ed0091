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
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code match.any.sync.b32/.b64 d, a, m}: {@code MATCH.ANY[.U64] Rd, Ra}; {@code match.all.sync d[|p], a, m}:
 * {@code MATCH.ALL[.U64] Pp|PT, Rd, Ra} on sm_80+; on sm_75, as ptxas, MATCH.ANY compared with the active mask
 * ({@code VOTE.ANY R, PT, PT; ISETP.EQ.U32.AND p, PT, any, active, PT; SEL d, active, RZ, p}). Under a partial member mask, a WARPSYNC first and the match.any result ANDed with the mask.
 */
@AutoService(InstructionLowerer.class)
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
            if (cx.profile().has(TargetFeature.MATCH_ALL)) {
                cx.emit("MATCH", mods, List.of(p, d), List.of(Src.of(a)));
                return;
            }
            // without it (Turing), as ptxas: MATCH.ANY, and all lanes agree when the match equals the active mask
            List<String> anyMods = type == PtxType.B64 ? List.of("ANY", "U64") : List.of("ANY");
            Reg same = cx.newReg(RegFile.R, 1);
            cx.emit("MATCH", anyMods, List.of(same), List.of(Src.of(a)));
            Reg active = cx.newReg(RegFile.R, 1);
            cx.emit("VOTE", List.of("ANY"), List.of(active, Reg.PT), List.of(Src.of(Reg.PT)));
            Reg agree = p.isZero() ? cx.newReg(RegFile.P, 1) : p;
            cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(agree, Reg.PT),
                    List.of(Src.of(same), Src.of(active), Src.of(Reg.PT)));
            cx.emit("SEL", List.of(), List.of(d), List.of(Src.of(active), Src.of(Reg.RZ), Src.of(agree)));
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
