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
 * {@code ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 {d...}, [a]}: one
 * {@code LDSM.16.M88[.2|.4]} ({@code .MT88} transposed) into a tuple of as many registers, copied to the
 * destinations, as ptxas writes it from sm_75 on. A generic address (no state space) becomes a shared one as
 * {@code cvta.to.shared} makes it ({@link AddressLowerer#windowOffset}).
 */
@AutoService(InstructionLowerer.class)
public final class MatrixLoadLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("ldmatrix");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (cx.target().sm() < 75) {
            throw cx.unsupported("needs sm_75");
        }
        int count = insn.hasModifier("x4") ? 4 : insn.hasModifier("x2") ? 2 : insn.hasModifier("x1") ? 1 : 0;
        if (count == 0 || !insn.hasModifier("m8n8") || !insn.hasModifier("b16")) {
            throw cx.unsupported("shape or type");
        }
        StateSpace space = insn.hasModifier("shared::cta") ? StateSpace.SHARED : MemoryLowerer.space(insn);
        if (space != null && space != StateSpace.SHARED) {
            throw cx.unsupported("state space");
        }
        Operand value = insn.operands().get(0);
        List<Operand> elements = value instanceof Operand.Vector v ? v.elements() : List.of(value);
        if (elements.size() != count) {
            throw cx.unsupported("destination count");
        }
        Addr addr = cx.address((Operand.Address) insn.operands().get(1), space == null ? null : StateSpace.SHARED);
        if (space == null) {
            // a generic address into shared memory: its offset in the shared window
            Reg window = cx.newReg(RegFile.R, 1);
            AddressLowerer.windowOffset(cx, window, Src.of(addr.base()), StateSpace.SHARED);
            addr = Addr.of(window, addr.offset());
        }
        Reg tuple = count == 1 ? cx.newReg(RegFile.R, 1) : cx.newReg(RegFile.R, count);
        String shape = insn.hasModifier("trans") ? "MT88" : "M88";
        List<String> mods = count == 1 ? List.of("16", shape) : List.of("16", shape, Integer.toString(count));
        cx.emit("LDSM", mods, List.of(tuple), List.of(Src.of(addr)));
        for (int k = 0; k < count; k++) {
            if (elements.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg d = cx.dst(elements.get(k), PtxType.B32);
            cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(count == 1 ? tuple : tuple.component(k))));
        }
    }
}
