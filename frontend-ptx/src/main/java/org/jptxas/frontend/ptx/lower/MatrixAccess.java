package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * What {@code ldmatrix} and {@code stmatrix} share: {@code .m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16}, a vector of
 * as many 32-bit fragments, and a shared address (a generic one made shared as {@code cvta.to.shared} makes it), with
 * the LDSM/STSM modifiers they take.
 */
record MatrixAccess(int count, List<Operand> fragments, Addr address, List<String> modifiers) {
    /** The access of {@code insn}, its fragments at operand {@code fragmentsAt} and its address at {@code addressAt}. */
    static MatrixAccess of(Instruction insn, LoweringContext cx, int fragmentsAt, int addressAt)
            throws CompilationException {
        int count = insn.hasModifier("x4") ? 4 : insn.hasModifier("x2") ? 2 : insn.hasModifier("x1") ? 1 : 0;
        if (count == 0 || !insn.hasModifier("m8n8") || !insn.hasModifier("b16")) {
            throw cx.unsupported("shape or type");
        }
        StateSpace space = insn.hasModifier("shared::cta") ? StateSpace.SHARED : MemoryLowerer.space(insn);
        if (space != null && space != StateSpace.SHARED) {
            throw cx.unsupported("state space");
        }
        Operand value = insn.operands().get(fragmentsAt);
        List<Operand> fragments = value instanceof Operand.Vector v ? v.elements() : List.of(value);
        if (fragments.size() != count) {
            throw cx.unsupported("fragment count");
        }
        Addr addr = cx.address((Operand.Address) insn.operands().get(addressAt),
                space == null ? null : StateSpace.SHARED);
        if (space == null) {
            // a generic address into shared memory: its offset in the shared window
            Reg window = cx.newReg(RegFile.R, 1);
            AddressLowerer.windowOffset(cx, window, Src.of(addr.base()), StateSpace.SHARED);
            addr = Addr.of(window, addr.offset());
        }
        String shape = insn.hasModifier("trans") ? "MT88" : "M88";
        List<String> mods = count == 1 ? List.of("16", shape) : List.of("16", shape, Integer.toString(count));
        return new MatrixAccess(count, fragments, addr, mods);
    }

    /** Fragment {@code k} of the register tuple that holds them. */
    Reg part(Reg tuple, int k) {
        return count == 1 ? tuple : tuple.component(k);
    }
}
