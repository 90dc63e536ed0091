package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * {@code txq.{width,height,depth}.b32 d, [h]} and {@code suq.{width,height,depth}.b32 d, [h]} with a bindless handle
 * from a kernel parameter, as ptxas 13 writes both: the header's dimensions, {@code TXQ RZ, Rd, Ra,
 * TEX_HEADER_DIMENSION, 0x0, off, mask} (sm_90: {@code ..., URh, 0x0, mask}), Ra the level of detail (0, in a
 * register), the write mask the one channel asked for (x width, y height, z depth) landing in Rd. Other queries
 * (levels, formats, sampler state, which ptxas reads from the descriptor pools in memory), an explicit level and
 * bound references are refused by name.
 */
@AutoService(InstructionLowerer.class)
public final class TextureQueryLowerer implements InstructionLowerer {
    /** The header query that returns width, height, depth and levels as channels x, y, z, w. */
    static final String DIMENSION = "TEX_HEADER_DIMENSION";

    @Override
    public Set<String> opcodes() {
        return Set.of("txq", "suq");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        int channel = insn.hasModifier("width") ? 0 : insn.hasModifier("height") ? 1 : insn.hasModifier("depth") ? 2 : -1;
        if (channel < 0) {
            throw cx.unsupported(insn.opcode() + " of descriptor fields other than the size");
        }
        if (insn.hasModifier("level")) {
            throw cx.unsupported("txq of an explicit level");
        }
        if (!insn.hasModifier("b32") || insn.operands().size() != 2
                || !(insn.operands().get(1) instanceof org.jptxas.frontend.ptx.ast.Operand.Address addr)
                || addr.parts().size() != 1) {
            throw cx.unsupported(insn.opcode() + " form");
        }
        Object handle = TextureLowerer.handleOf(insn, addr.parts().get(0), cx);
        if (handle instanceof Sym) {
            throw cx.unsupported(insn.opcode() + " of a bound reference");
        }
        // the level of detail: a register holding 0 (ptxas never names RZ there)
        Reg level = cx.newReg(RegFile.R, 1);
        cx.emit("MOV", List.of(), List.of(level), List.of(Src.of(Imm.ofInt(0))));
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(level));
        srcs.add(Src.of(new SpecialReg(DIMENSION)));
        TextureLowerer.addHandle(cx, handle, srcs);
        srcs.add(Src.of(Imm.ofInt(1 << channel)));
        Reg d = cx.dst(insn.operands().get(0), PtxType.B32);
        cx.emit("TXQ", List.of(), List.of(Reg.RZ, d), srcs);
    }
}
