package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TargetProfile;

/**
 * Gives each kernel's bound texture references their header slots. {@link TextureLowerer} names a reference by its
 * symbol ({@link Sym.Kind#TEXTURE}) where the slot's offset belongs, because a device function does not know the
 * kernel it ends up in: after inlining, each kernel's references get words of its constant bank 0 after the
 * parameter block (aligned to 4), in the order the code first reads them, and the operand becomes the slot's offset
 * in words in a texture instruction ({@code TEX.SCR}) or the constant-bank word a uniform load reads ({@code ULDC},
 * sm_90). The driver fills the slots (R_CUDA_TEX_HEADER_INDEX, written by code generation from
 * {@link FunctionAttrs#textureSlots()}).
 */
public final class TextureSlots {
    private TextureSlots() {}

    /** {@code module} with every kernel's texture references in slots. */
    public static OriModule assign(OriModule module, TargetProfile profile) {
        List<OriFunction> out = new ArrayList<>();
        boolean changed = false;
        for (OriFunction f : module.functions()) {
            OriFunction g = f.entry() ? assign(f, profile) : f;
            changed |= g != f;
            out.add(g);
        }
        return changed ? module.withFunctions(out) : module;
    }

    /**
     * Fails on a texture reference left outside a kernel: a device function kept as a function of its own (recursive,
     * or exported in relocatable output) has no slot to read.
     */
    public static void checkResolved(OriModule module, String fileName) throws UnsupportedFeatureException {
        for (OriFunction f : module.functions()) {
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    for (Src s : in.srcs()) {
                        if (s.value() instanceof Sym sym && sym.kind() == Sym.Kind.TEXTURE) {
                            throw new UnsupportedFeatureException(fileName, in.line(), "Texture reference '"
                                    + sym.name() + "' read in a function that is not inlined into a kernel is not"
                                    + " yet supported");
                        }
                    }
                }
            }
        }
    }

    private static OriFunction assign(OriFunction f, TargetProfile profile) {
        List<String> slots = new ArrayList<>(f.attrs().textureSlots());
        int base = profile.paramBase() + (f.attrs().paramBytes() + 3) / 4 * 4;
        boolean found = false;
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                List<Src> srcs = in.srcs();
                for (int k = 0; k < srcs.size(); k++) {
                    if (!(srcs.get(k).value() instanceof Sym sym) || sym.kind() != Sym.Kind.TEXTURE) {
                        continue;
                    }
                    if (!slots.contains(sym.name())) {
                        slots.add(sym.name());
                    }
                    int offset = base + 4 * slots.indexOf(sym.name());
                    boolean word = in.op().name().equals("TEX") || in.op().name().equals("TLD");
                    srcs.set(k, Src.of(word ? Imm.ofInt(offset / 4) : CBank.of(0, offset)));
                    found = true;
                }
            }
        }
        return found ? new OriFunction(f.name(), f.entry(), f.line(), f.body(), f.attrs().withTextureSlots(slots)) : f;
    }
}
