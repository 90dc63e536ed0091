package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code prefetch} and {@code prefetchu}, kept as the cache operations ptxas 13 writes (sm_75..sm_90): a generic or
 * global line is {@code CCTL.E.PF1 [a]} into L1 and {@code CCTL.E.PF2 [a]} into L2 ({@code .L2::evict_normal} too),
 * {@code .L2::evict_last} is {@code CCTL.E.PML2 [a]}; a local line is {@code CCTLL.PF1/PF2 [a]} at its 32-bit
 * window address; {@code prefetchu.L1} is {@code CCTL.E.PF1}. A tensor map ({@code .tensormap}, sm_90) is prefetched
 * with {@code UTMACCTL.PF [UR]}, its generic address (a kernel parameter's or a constant's through its window) made
 * warp-uniform.
 */
@AutoService(InstructionLowerer.class)
public final class PrefetchLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("prefetch", "prefetchu");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        Operand.Address a = (Operand.Address) insn.operands().get(0);
        if (insn.hasModifier("tensormap")) {
            tensorMap(insn, a, cx);
            return;
        }
        String level = insn.hasModifier("L2::evict_last") ? "PML2" : insn.hasModifier("L1") ? "PF1" : "PF2";
        if (MemoryLowerer.space(insn) == StateSpace.LOCAL) {
            cx.emit("CCTLL", List.of(level), List.of(), List.of(Src.of(cx.address(a, StateSpace.LOCAL))));
        } else {
            cx.emit("CCTL", List.of("E", level), List.of(), List.of(Src.of(cx.address(a, StateSpace.GLOBAL))));
        }
    }

    private static void tensorMap(Instruction insn, Operand.Address operand, LoweringContext cx)
            throws CompilationException {
        BasicBlock done = cx.instruction().guard() != null ? cx.branchAroundGuard() : null;
        StateSpace space = MemoryLowerer.space(insn);
        Reg generic;
        if (space == StateSpace.PARAM || space == StateSpace.CONST) {
            Addr w = cx.address(operand, space);
            Src offset = Src.of(Imm.ofInt((int) w.offset()));
            if (!w.base().isZero()) {
                Reg sum = Ptx.r32(cx);
                cx.emit("IADD3", List.of(), List.of(sum, Reg.PT, Reg.PT), List.of(Src.of(w.base()), offset, Ptx.rz()));
                offset = Src.of(sum);
            }
            generic = cx.newReg(RegFile.R, 2);
            if (space == StateSpace.PARAM) {
                AddressLowerer.cvtaParam(cx, generic, offset);
            } else if (cx.profile().constWindow() != null) {
                AddressLowerer.windowGeneric(cx, generic, offset, cx.profile().constWindow().slot());
            } else {
                throw cx.unsupported("generic addresses of .const on " + cx.target().name());
            }
        } else {
            Addr a = cx.address(operand, StateSpace.GLOBAL);
            generic = Ptx.plus64(cx, a.base(), a.offset(), false);
        }
        Reg ua = cx.newReg(RegFile.UR, 2);
        UniformLoop.forEach(cx, List.of(Src.of(generic.component(0)), Src.of(generic.component(1))),
                List.of(ua.component(0), ua.component(1)), false,
                () -> cx.emitUnguarded("UTMACCTL", List.of("PF"), List.of(), List.of(Src.of(Addr.of(ua, 0)))));
        if (done != null) {
            cx.startBlock(done);
        }
    }
}
