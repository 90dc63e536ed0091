package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * {@code tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [s], 128}
 * (sm_90): the warp copies the 128-byte tensor map, one word per lane, with a strong exchange ({@code LDS} of word
 * {@code laneid}, {@code ATOMG.E.EXCH.STRONG.GPU PT, RZ, [g + 4 laneid], w}), as ptxas 13 writes it. Also the
 * acquire side, {@code fence.proxy.tensormap::generic.acquire [a], 128} ({@link FenceLowerer}): {@code DEPBAR} on
 * every scoreboard, then {@code UTMACCTL.IV [UR]}.
 */
@AutoService(InstructionLowerer.class)
public final class TensorMapCopyLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("tensormap.cp_fenceproxy");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        if (!insn.hasModifier("global") || !insn.hasModifier("shared::cta") || ops.size() != 3
                || !(cx.src(ops.get(2), PtxType.U32).value() instanceof Imm size) || size.bits() != 128) {
            throw cx.unsupported("tensormap.cp_fenceproxy form");
        }
        if (!insn.hasModifier("gpu")) {
            throw cx.unsupported("tensormap.cp_fenceproxy scope other than .gpu");
        }
        Addr g = cx.address((Operand.Address) ops.get(0), StateSpace.GLOBAL);
        Addr s = cx.address((Operand.Address) ops.get(1), StateSpace.SHARED);
        Reg lane = Ptx.r32(cx);
        cx.emit("S2R", List.of(), List.of(lane), List.of(Src.of(new SpecialReg("SR_LANEID"))));
        Reg offset = Ptx.r32(cx);
        cx.emit("SHF", List.of("L", "U32"), List.of(offset), List.of(Src.of(lane), Ptx.imm(2), Ptx.rz()));
        Reg sa = Ptx.r32(cx);
        cx.emit("IADD3", List.of(), List.of(sa, Reg.PT, Reg.PT), List.of(Src.of(s.base()), Src.of(offset),
                Ptx.rz()));
        Reg word = Ptx.r32(cx);
        cx.emit("LDS", List.of(), List.of(word), List.of(Src.of(Addr.of(sa, s.offset()))));
        Reg ga = cx.newReg(RegFile.R, 2);
        Reg carry = Ptx.pred(cx);
        cx.emit("IADD3", List.of(), List.of(ga.component(0), carry, Reg.PT),
                List.of(Src.of(g.base().component(0)), Src.of(offset), Ptx.rz()));
        cx.emit("IADD3", List.of("X"), List.of(ga.component(1), Reg.PT, Reg.PT),
                List.of(Src.of(g.base().component(1)), Ptx.rz(), Ptx.rz(), Src.of(carry), Ptx.notPt()));
        cx.emit("ATOMG", List.of("E", "EXCH", "STRONG", "GPU"), List.of(Reg.PT, Reg.RZ),
                List.of(Src.of(Addr.of(ga, g.offset())), Src.of(word)));
    }

    /** {@code fence.proxy.tensormap::generic.acquire [a], 128}: DEPBAR on all scoreboards, UTMACCTL.IV [UR]. */
    static void acquire(LoweringContext cx, Operand.Address address) throws CompilationException {
        Addr a = cx.address(address, StateSpace.GLOBAL);
        BasicBlock done = cx.instruction().guard() != null ? cx.branchAroundGuard() : null;
        cx.emitUnguarded("DEPBAR", List.of(), List.of(), List.of(Ptx.imm(5), Ptx.imm(4), Ptx.imm(3), Ptx.imm(2),
                Ptx.imm(1), Ptx.imm(0)));
        Reg ua = cx.newReg(RegFile.UR, 2);
        Reg b = Ptx.plus64(cx, a.base(), a.offset(), false);
        UniformLoop.forEach(cx, List.of(Src.of(b.component(0)), Src.of(b.component(1))),
                List.of(ua.component(0), ua.component(1)), false,
                () -> cx.emitUnguarded("UTMACCTL", List.of("IV"), List.of(), List.of(Src.of(Addr.of(ua, 0)))));
        if (done != null) {
            cx.startBlock(done);
        }
    }
}
