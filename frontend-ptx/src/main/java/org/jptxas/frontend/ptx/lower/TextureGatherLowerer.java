package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [h, {x, y}]} with a bindless handle from a kernel parameter, as
 * ptxas 13 writes it: {@code TLD4.SCR.R Rd2, Rd, Ra, Rb, 0x0, off, 2D} on sm_75..89, where the two coordinates go
 * one in Ra (x) and one in Rb (y), and {@code TLD4.R Rd2, Rd, Ra, URh, 0x0, 2D} where the target takes the handle in
 * a uniform pair ({@link TargetFeature#TEXTURE_HANDLE_IN_UR}, sm_90), x and y then the pair Ra. The four gathered
 * texels come back as {@code tex}'s four channels (Rd2 = z, w; Rd = x, y), which {@code TextureWriteMasks} narrows to
 * those read. Offsets, depth compare, arrays and cubes, the residency predicate and bound references are refused by
 * name.
 */
final class TextureGatherLowerer {
    private TextureGatherLowerer() {}

    static void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        String channel = insn.hasModifier("r") ? "R" : insn.hasModifier("g") ? "G" : insn.hasModifier("b") ? "B"
                : insn.hasModifier("a") ? "A" : null;
        if (channel == null) {
            throw cx.unsupported("tld4 form");
        }
        if (!insn.hasModifier("2d")) {
            throw cx.unsupported("tld4 of array and cube textures");
        }
        TextureLowerer.refuseResidency(insn, cx);
        if (insn.operands().size() > 2) {
            throw cx.unsupported("tld4 offsets and depth compare");
        }
        if (!insn.hasModifier("v4") || insn.operands().size() != 2
                || !(insn.operands().get(0) instanceof Operand.Vector dv) || dv.elements().size() != 4
                || !(insn.operands().get(1) instanceof Operand.Address addr) || addr.parts().size() != 2
                || !(addr.parts().get(1) instanceof Operand.Vector cv) || cv.elements().size() < 2) {
            throw cx.unsupported("operand form");
        }
        List<String> mods = insn.modifiers();
        PtxType dtype = PtxType.fromName(mods.get(mods.size() - 2)).orElse(null);
        PtxType ctype = PtxType.fromName(mods.get(mods.size() - 1)).orElse(null);
        if (dtype == null || ctype == null || !Set.of("f32", "s32", "u32").contains(dtype.ptxName())
                || !ctype.ptxName().equals("f32")) {
            throw cx.unsupported("types");
        }
        Object handle = TextureLowerer.handleOf(insn, addr.parts().get(0), cx);
        if (handle instanceof Sym) {
            throw cx.unsupported("tld4 of a bound texture reference");
        }
        Src x = cx.src(cv.elements().get(0), ctype);
        Src y = cx.src(cv.elements().get(1), ctype);
        boolean uniformHandle = cx.profile().has(TargetFeature.TEXTURE_HANDLE_IN_UR);
        List<Src> srcs = new ArrayList<>();
        if (uniformHandle) {
            srcs.add(Src.of(tuple(cx, List.of(x, y))));
        } else {
            srcs.add(Src.of(tuple(cx, List.of(x))));
            srcs.add(Src.of(tuple(cx, List.of(y))));
        }
        TextureLowerer.addHandle(cx, handle, srcs);
        srcs.add(Src.of(new SpecialReg("2D")));
        Reg zw = cx.newReg(RegFile.R, 2);
        Reg xy = cx.newReg(RegFile.R, 2);
        List<String> opMods = uniformHandle ? List.of(channel) : List.of("SCR", channel);
        cx.emit("TLD4", opMods, List.of(zw, xy), srcs);
        TextureLowerer.copyChannels(cx, dv, dtype, zw, xy);
    }
}
