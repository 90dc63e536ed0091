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
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code stmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 [a], {s...}} (sm_90): the sources copied
 * into a tuple of as many registers, then one {@code STSM.16.M88[.2|.4]} ({@code .MT88} transposed), as ptxas 13
 * writes it. A generic address becomes a shared one as {@code cvta.to.shared} makes it.
 */
@AutoService(InstructionLowerer.class)
public final class MatrixStoreLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("stmatrix");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (cx.target().sm() < 90) {
            throw cx.unsupported("needs sm_90");
        }
        int count = insn.hasModifier("x4") ? 4 : insn.hasModifier("x2") ? 2 : insn.hasModifier("x1") ? 1 : 0;
        if (count == 0 || !insn.hasModifier("m8n8") || !insn.hasModifier("b16")) {
            throw cx.unsupported("shape or type");
        }
        StateSpace space = insn.hasModifier("shared::cta") ? StateSpace.SHARED : MemoryLowerer.space(insn);
        if (space != null && space != StateSpace.SHARED) {
            throw cx.unsupported("state space");
        }
        Operand value = insn.operands().get(1);
        List<Operand> elements = value instanceof Operand.Vector v ? v.elements() : List.of(value);
        if (elements.size() != count) {
            throw cx.unsupported("source count");
        }
        Addr addr = cx.address((Operand.Address) insn.operands().get(0), space == null ? null : StateSpace.SHARED);
        if (space == null) {
            // a generic address into shared memory: its offset in the shared window
            Reg window = cx.newReg(RegFile.R, 1);
            AddressLowerer.windowOffset(cx, window, Src.of(addr.base()), StateSpace.SHARED);
            addr = Addr.of(window, addr.offset());
        }
        if (addr.base().isZero()) { // a symbol: STSM has no [imm] form (nvdisasm leaves RZ out of the address)
            Reg r = cx.newReg(RegFile.R, 1);
            cx.emit("MOV", List.of(), List.of(r), List.of(Ptx.imm(addr.offset() & 0xffffffffL)));
            addr = Addr.of(r, 0);
        }
        Reg tuple = cx.newReg(RegFile.R, count);
        for (int k = 0; k < count; k++) {
            cx.emit("MOV", List.of(), List.of(count == 1 ? tuple : tuple.component(k)),
                    List.of(cx.src(elements.get(k), PtxType.B32)));
        }
        String shape = insn.hasModifier("trans") ? "MT88" : "M88";
        List<String> mods = count == 1 ? List.of("16", shape) : List.of("16", shape, Integer.toString(count));
        cx.emit("STSM", mods, List.of(), List.of(Src.of(addr), Src.of(tuple)));
    }
}
