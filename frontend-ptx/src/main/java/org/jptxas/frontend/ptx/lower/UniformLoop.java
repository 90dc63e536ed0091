package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Per-thread operands of an instruction that reads only uniform registers (SYNCS.EXCH, UBLKCP, UTMALDG, ...): a loop
 * that serves one distinct operand tuple per trip. Each trip elects a pending lane ({@code ELECT} among the lanes
 * still pending), broadcasts its values ({@code SHFL.IDX}), moves them to uniform registers ({@code R2UR}: now
 * warp-uniform), runs the body once for the warp, and retires every lane whose values equal the leader's; the back
 * branch is taken while any lane is pending ({@code VOTE.ANY}), so all lanes loop together. ptxas builds the same
 * loop from {@code R2UR}'s own match predicate; jptxas keeps to instructions whose meaning is plain, after a
 * {@code WARPSYNC} of the lanes present (the members its SHFL and VOTE name).
 * Immediates are moved with {@code UMOV} outside the loop. The caller has handled the PTX guard
 * ({@link LoweringContext#branchAroundGuard()}).
 */
final class UniformLoop {
    private UniformLoop() {
    }

    /**
     * {@code WARPSYNC} of the lanes present, right before a warp-synchronous instruction: its members (the
     * reconvergence pass would otherwise put a full-warp WARPSYNC there, which the other lanes of a divergent warp
     * never reach).
     */
    private static void members(LoweringContext cx, Reg here) {
        cx.emitUnguarded("WARPSYNC", List.of(), List.of(), List.of(Src.of(here)));
    }

    /**
     * Runs {@code body} once per distinct tuple of {@code values} (32-bit registers or immediates) among the active
     * lanes, with value {@code k} in the uniform register {@code into.get(k)} (a caller's register or a component
     * of one: a pair for a 64-bit operand). {@code perLane}: one trip per pending lane, even for equal tuples (an
     * operation every thread's issue counts for, as a bulk copy that completes a transaction on an mbarrier).
     */
    static void forEach(LoweringContext cx, List<Src> values, List<Reg> into, boolean perLane, Runnable body) {
        forEachServing(cx, values, into, perLane, served -> body.run());
    }

    /**
     * {@link #forEach}, the body given the predicate of the lanes a trip serves (null when no loop is needed: every
     * lane), for a body whose instructions count once per thread (a lane's own arrival, its own copies).
     */
    static void forEachServing(LoweringContext cx, List<Src> values, List<Reg> into, boolean perLane,
            Consumer<Reg> body) {
        List<Integer> varying = new ArrayList<>();
        for (int k = 0; k < values.size(); k++) {
            Src v = values.get(k);
            if (v.value() instanceof Reg r && r.file() == RegFile.R && !r.isZero()) {
                varying.add(k);
            } else {
                cx.emitUnguarded("UMOV", List.of(), List.of(into.get(k)),
                        List.of(v.value() instanceof Reg ? Src.of(Reg.URZ) : v));
            }
        }
        if (varying.isEmpty() && !perLane) {
            body.accept(null);
            return;
        }
        // the lanes here are the loop's members: SHFL and VOTE below name them (activemask, as shfl.sync with it)
        Reg here = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("VOTE", List.of("ANY"), List.of(here, Reg.PT), List.of(Src.of(Reg.PT)));
        Reg pending = cx.newReg(RegFile.P, 1);
        cx.emitUnguarded("PLOP3", List.of("LUT"), List.of(pending, Reg.PT),
                List.of(Ptx.pt(), Ptx.pt(), Ptx.pt(), Ptx.imm(0x80), Ptx.imm(0)));
        BasicBlock loop = cx.newBlock();
        cx.startBlock(loop);
        Reg leader = cx.newReg(RegFile.UR, 1);
        Reg elected = cx.newReg(RegFile.P, 1);
        members(cx, here);
        cx.emitUnguarded("ELECT", List.of(), List.of(elected, leader), List.of(Src.of(pending)));
        Reg lane = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("MOV", List.of(), List.of(lane), List.of(Src.of(leader)));
        Reg match = perLane ? elected : pending;
        for (int k : varying) {
            Reg v = (Reg) values.get(k).value();
            Reg led = cx.newReg(RegFile.R, 1);
            members(cx, here);
            cx.emitUnguarded("SHFL", List.of("IDX"), List.of(Reg.PT, led),
                    List.of(Src.of(v), Src.of(lane), Ptx.imm(0x1f)));
            cx.emitUnguarded("R2UR", List.of(), List.of(into.get(k)), List.of(Src.of(led)));
            if (!perLane) {
                Reg same = cx.newReg(RegFile.P, 1);
                cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(same, Reg.PT),
                        List.of(Src.of(v), Src.of(led), Src.of(match)));
                match = same;
            }
        }
        body.accept(match);
        // still pending: pending and not served (a & ~b)
        cx.emitUnguarded("PLOP3", List.of("LUT"), List.of(pending, Reg.PT),
                List.of(Src.of(pending), Src.of(match), Ptx.pt(), Ptx.imm(0x30), Ptx.imm(0)));
        Reg any = cx.newReg(RegFile.P, 1);
        members(cx, here);
        cx.emitUnguarded("VOTE", List.of("ANY"), List.of(cx.newReg(RegFile.R, 1), any), List.of(Src.of(pending)));
        cx.emitUnguarded("BRA", List.of(), List.of(), List.of(Src.of(loop.ref()))).setGuard(new Guard(any, false));
        cx.startBlock(cx.newBlock());
    }
}
