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
 * {@code vote} and {@code activemask}, as ptxas 13 emits them: {@code vote.all/.any/.uni.pred d, {!}a} is
 * {@code VOTE.ALL/ANY/EQ Pd, {!}Pa}, {@code vote.ballot.b32 d, {!}a} is
 * {@code VOTE.ANY Rd, PT, {!}Pa}, {@code activemask.b32 d} is {@code VOTE.ANY Rd, PT, PT}. A ballot under a partial
 * member mask is ANDed with the mask (ptxas's sm_75 code does the same). For sm_75, as ptxas, vote.all/any/uni
 * are ballots compared with zero or the active mask ({@code VOTE.ANY R, PT, {!}a; ISETP...}).
 */
@AutoService(InstructionLowerer.class)
public final class VoteLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("vote", "activemask");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        if (insn.opcode().equals("activemask")) {
            cx.emit("VOTE", List.of("ANY"), List.of(cx.dst(ops.get(0), PtxType.B32), Reg.PT), List.of(Src.of(Reg.PT)));
            return;
        }
        Operand mask = insn.hasModifier("sync") ? ops.get(2) : null;
        WarpMasks.syncIfPartial(cx, mask, false);
        Src a = SyncOperands.predicate(cx, ops.get(1));
        if (insn.hasModifier("ballot")) {
            Reg ballot = WarpMasks.isFull(mask) ? cx.dst(ops.get(0), PtxType.B32) : cx.newReg(RegFile.R, 1);
            cx.emit("VOTE", List.of("ANY"), List.of(ballot, Reg.PT), List.of(a));
            if (!WarpMasks.isFull(mask)) {
                Reg restricted = WarpMasks.restrict(cx, ballot, mask);
                cx.emit("MOV", List.of(), List.of(cx.dst(ops.get(0), PtxType.B32)), List.of(Src.of(restricted)));
            }
            return;
        }
        String mode = insn.hasModifier("all") ? "ALL" : insn.hasModifier("any") ? "ANY" : "EQ";
        Reg d = cx.dst(ops.get(0), PtxType.PRED);
        if (cx.profile().has(TargetFeature.PREDICATE_VOTE)) {
            cx.emit("VOTE", List.of(mode), List.of(d), List.of(a));
            return;
        }
        // without it (Turing), as ptxas: from ballots. all(a) = ballot(!a) == 0, any(a) = ballot(a) != 0,
        // uni(a) = ballot(a) == 0 || ballot(a) == active
        Reg ballot = cx.newReg(RegFile.R, 1);
        cx.emit("VOTE", List.of("ANY"), List.of(ballot, Reg.PT), List.of(mode.equals("ALL") ? a.inverted() : a));
        switch (mode) {
            case "ALL" -> cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(d, Reg.PT),
                    List.of(Src.of(ballot), Src.of(Reg.RZ), Src.of(Reg.PT)));
            case "ANY" -> cx.emit("ISETP", List.of("NE", "U32", "AND"), List.of(d, Reg.PT),
                    List.of(Src.of(ballot), Src.of(Reg.RZ), Src.of(Reg.PT)));
            default -> {
                Reg active = cx.newReg(RegFile.R, 1);
                cx.emit("VOTE", List.of("ANY"), List.of(active, Reg.PT), List.of(Src.of(Reg.PT)));
                Reg none = cx.newReg(RegFile.P, 1);
                cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(none, Reg.PT),
                        List.of(Src.of(ballot), Src.of(Reg.RZ), Src.of(Reg.PT)));
                cx.emit("ISETP", List.of("EQ", "U32", "OR"), List.of(d, Reg.PT),
                        List.of(Src.of(ballot), Src.of(active), Src.of(none)));
            }
        }
    }
}
