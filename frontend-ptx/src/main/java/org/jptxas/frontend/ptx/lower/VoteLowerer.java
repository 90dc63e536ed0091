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
 * {@code vote} and {@code activemask}, as ptxas 13 emits them: {@code vote.all/.any/.uni.pred d, {!}a} is
 * {@code VOTE.ALL/ANY/EQ Pd, {!}Pa}, {@code vote.ballot.b32 d, {!}a} is
 * {@code VOTE.ANY Rd, PT, {!}Pa}, {@code activemask.b32 d} is {@code VOTE.ANY Rd, PT, PT}. A ballot under a partial
 * member mask is ANDed with the mask (ptxas's sm_75 code does the same). (ptxas's sm_75 -O3 code rewrites
 * vote.all/uni into ballots compared with the active mask; VOTE.ALL and VOTE.EQ exist there too.)
 */
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
        cx.emit("VOTE", List.of(mode), List.of(cx.dst(ops.get(0), PtxType.PRED)), List.of(a));
    }
}
