package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.ModuleItem;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} d, [h, c]} with a bindless {@code .u64} handle that a kernel
 * parameter holds ({@code ld.param.u64 h, [texobj]}), as ptxas 13 writes it: float coordinates sample with an
 * explicit level of detail ({@code TEX.SCR.LL}, level -32.0, ptxas's constant: below any mip level, so level 0),
 * a 1d fetch as a 2D one at y = 0; integer coordinates fetch texels ({@code TLD.SCR.LZ}). The sample's four
 * components come back in two register pairs (the first operand holds z, w; the second x, y; the optimizer's
 * {@code TextureWriteMasks} then keeps only the channels something reads). Coordinates go in
 * {@code Ra} and {@code Rb}: x, y in Ra, then z and the level in Rb. The handle is the parameter's constant-bank
 * offset in the instruction on sm_75..89 ({@code .SCR}); where the target takes it in a uniform register pair
 * ({@link TargetFeature#TEXTURE_HANDLE_IN_UR}, sm_90) the low word is loaded into one (the high word is zero, as
 * ptxas does) and all coordinates go in Ra, the level in Rb. The data type does not appear in SASS: the texture's
 * header gives the format. A bound reference ({@code .global .texref}, unified mode) is read through a slot of the
 * kernel's constant bank 0 after the parameters, which the driver fills with the reference's header index
 * (R_CUDA_TEX_HEADER_INDEX): the same instruction with the slot's offset, placed by {@link TextureSlots} after
 * inlining (the operand names the reference until then). Samplers
 * (independent mode), arrays, cubes and multisample textures, explicit level or gradient forms, texel offsets, depth
 * compare, f16 results, the residency predicate and handles from anywhere else are refused by name.
 */
@AutoService(InstructionLowerer.class)
public final class TextureLowerer implements InstructionLowerer {
    /** The level of detail ptxas gives {@code .LL} for a {@code tex} without one: -32.0. */
    static final float IMPLICIT_LEVEL = -32.0f;

    @Override
    public Set<String> opcodes() {
        return Set.of("tex", "tld4");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (insn.opcode().equals("tld4")) {
            TextureGatherLowerer.lower(insn, cx);
            return;
        }
        int dims = insn.hasModifier("1d") ? 1 : insn.hasModifier("2d") ? 2 : insn.hasModifier("3d") ? 3 : 0;
        if (dims == 0) {
            throw cx.unsupported("array, cube and multisample textures");
        }
        refuseResidency(insn, cx);
        if (insn.hasModifier("level") || insn.hasModifier("grad")) {
            throw cx.unsupported("explicit level of detail or gradients");
        }
        if (insn.operands().size() > 2) {
            throw cx.unsupported("texel offsets and depth compare");
        }
        if (insn.hasModifier("f16") || insn.hasModifier("f16x2")) {
            throw cx.unsupported("f16 texture results");
        }
        if (!insn.hasModifier("v4") || insn.operands().size() != 2
                || !(insn.operands().get(0) instanceof Operand.Vector dv) || dv.elements().size() != 4
                || !(insn.operands().get(1) instanceof Operand.Address addr) || addr.parts().size() != 2) {
            throw cx.unsupported("operand form");
        }
        List<String> mods = insn.modifiers();
        // tex.geom.v4.dtype.ctype: the last two type modifiers
        PtxType dtype = PtxType.fromName(mods.get(mods.size() - 2)).orElse(null);
        PtxType ctype = PtxType.fromName(mods.get(mods.size() - 1)).orElse(null);
        if (dtype == null || ctype == null || !Set.of("f32", "s32", "u32").contains(dtype.ptxName())
                || !Set.of("f32", "s32").contains(ctype.ptxName())) {
            throw cx.unsupported("types");
        }
        boolean fetch = ctype.ptxName().equals("s32");
        // a kernel parameter's constant-bank offset, or a bound reference (placed by TextureSlots after inlining)
        Object handle = handleOf(insn, addr.parts().get(0), cx);
        List<Operand> coordOps = addr.parts().get(1) instanceof Operand.Vector cv ? cv.elements()
                : List.of(addr.parts().get(1));
        if (coordOps.size() < dims) {
            throw cx.unsupported("coordinates");
        }
        List<Src> coords = new ArrayList<>();
        for (int k = 0; k < dims; k++) {
            coords.add(cx.src(coordOps.get(k), ctype));
        }
        boolean uniformHandle = cx.profile().has(TargetFeature.TEXTURE_HANDLE_IN_UR);
        // TEX samples a 1d texture as a 2D one at y = 0
        int hwDims = fetch ? dims : Math.max(dims, 2);
        if (!fetch && dims == 1) {
            coords.add(Ptx.rz());
        }
        Src level = Src.of(Imm.ofFloat(IMPLICIT_LEVEL));
        List<Src> regs = new ArrayList<>();
        if (uniformHandle) {
            regs.add(Src.of(tuple(cx, coords)));
            if (!fetch) {
                regs.add(Src.of(tuple(cx, List.of(level))));
            }
        } else {
            regs.add(Src.of(tuple(cx, coords.subList(0, Math.min(2, coords.size())))));
            if (fetch) {
                // Rb: z of a 3D fetch; a 2D fetch names y again (ptxas's choice: Ra + 1), a 1D one RZ
                regs.add(hwDims == 3 ? Src.of(tuple(cx, coords.subList(2, 3)))
                        : hwDims == 2 ? Src.of(((Reg) regs.get(0).value()).component(1)) : Ptx.rz());
            } else {
                List<Src> rb = new ArrayList<>(coords.subList(2, coords.size()));
                rb.add(level);
                regs.add(Src.of(tuple(cx, rb)));
            }
        }
        Reg zw = cx.newReg(RegFile.R, 2);
        Reg xy = cx.newReg(RegFile.R, 2);
        List<Src> srcs = new ArrayList<>(regs);
        addHandle(cx, handle, srcs);
        srcs.add(Src.of(new SpecialReg(hwDims + "D")));
        List<String> opMods = new ArrayList<>();
        if (!uniformHandle) {
            opMods.add("SCR");
        }
        opMods.add(fetch ? "LZ" : "LL");
        cx.emit(fetch ? "TLD" : "TEX", opMods, List.of(zw, xy), srcs);
        copyChannels(cx, dv, dtype, zw, xy);
    }

    /** A sparse texture's residency predicate ({@code d|p}) is not modelled: named, not misread. */
    static void refuseResidency(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!insn.operands().isEmpty() && insn.operands().get(0) instanceof Operand.Pair) {
            throw cx.unsupported("sparse texture residency predicate (d|p)");
        }
    }

    /**
     * The handle operands of a texture instruction: where the target takes the handle in a uniform pair, its low
     * word loaded into one (the high word zero, as ptxas does) and 0x0; else 0x0 and the word offset in bank 0 (or
     * the bound reference, placed later).
     */
    static void addHandle(LoweringContext cx, Object handle, List<Src> srcs) {
        if (cx.profile().has(TargetFeature.TEXTURE_HANDLE_IN_UR)) {
            Reg pair = cx.newReg(RegFile.UR, 2);
            cx.emit("ULDC", List.of(), List.of(pair.component(0)),
                    List.of(Src.of(handle instanceof Sym s ? s : CBank.of(0, (Integer) handle))));
            cx.emit("UMOV", List.of(), List.of(pair.component(1)), List.of(Src.of(Reg.URZ)));
            srcs.add(Src.of(pair));
            srcs.add(Src.of(Imm.ofInt(0)));
        } else {
            srcs.add(Src.of(Imm.ofInt(0)));
            srcs.add(Src.of(handle instanceof Sym s ? s : Imm.ofInt((Integer) handle / 4)));
        }
    }

    /** The four channels (x, y in the pair {@code xy}, z, w in {@code zw}) copied to the destinations not sinks. */
    static void copyChannels(LoweringContext cx, Operand.Vector dv, PtxType dtype, Reg zw, Reg xy)
            throws CompilationException {
        for (int k = 0; k < 4; k++) {
            Operand d = dv.elements().get(k);
            if (d instanceof Operand.Sink) {
                continue;
            }
            Reg r = cx.dst(d, dtype);
            cx.emit("MOV", List.of(), List.of(r), List.of(Src.of((k < 2 ? xy : zw).component(k % 2))));
        }
    }

    /**
     * A bound reference's symbol, or the constant-bank offset of the kernel parameter the handle register was loaded from: the register's only
     * definition in the function must be {@code ld.param.{u64,b64,s64} h, [param]} of a kernel parameter.
     */
    static Object handleOf(Instruction insn, Operand handle, LoweringContext cx) throws CompilationException {
        if (!(handle instanceof Expr.SymbolRef ref)) {
            throw cx.unsupported("texture handle");
        }
        var symbol = cx.resolved().symbolOf(ref).orElse(null);
        if (symbol instanceof org.jptxas.frontend.ptx.check.Symbol.Variable v && v.space() != StateSpace.REG) {
            if (v.space() == StateSpace.GLOBAL && v.decl().type() == PtxType.SURFREF) {
                throw cx.unsupported("bound surface reference (.surfref)");
            }
            if (v.space() != StateSpace.GLOBAL || v.decl().type() != PtxType.TEXREF) {
                throw cx.unsupported("texture operand");
            }
            return new Sym(ref.name(), Sym.Kind.TEXTURE);
        }
        if (!cx.isKernel()) {
            throw cx.unsupported("texture handle in a device function");
        }
        Block body = functionOf(cx, insn);
        List<Instruction> defs = new ArrayList<>();
        if (body != null) {
            definitions(body, ref.name(), defs);
        }
        if (defs.size() != 1 || !defs.get(0).opcode().equals("ld") || !defs.get(0).hasModifier("param")
                || !(defs.get(0).operands().get(1) instanceof Operand.Address pa)
                || !(pa.parts().get(0) instanceof Expr.SymbolRef param)
                || !isKernelParam(cx, param)) {
            throw cx.unsupported("texture handle not a kernel parameter");
        }
        return (int) cx.address(pa, StateSpace.PARAM).offset();
    }

    private static boolean isKernelParam(LoweringContext cx, Expr.SymbolRef param) {
        return cx instanceof FunctionLowerer fl && cx.resolved().symbolOf(param)
                .filter(s -> s instanceof org.jptxas.frontend.ptx.check.Symbol.Variable)
                .map(s -> fl.kernelParamOffset(((org.jptxas.frontend.ptx.check.Symbol.Variable) s).declarator()) != null)
                .orElse(false);
    }

    private static Block functionOf(LoweringContext cx, Instruction insn) {
        for (ModuleItem item : cx.resolved().module().items()) {
            if (item instanceof FunctionDecl f && f.body() != null && contains(f.body(), insn)) {
                return f.body();
            }
        }
        return null;
    }

    private static boolean contains(Block b, Instruction insn) {
        for (Statement s : b.statements()) {
            if (s == insn || s instanceof Block inner && contains(inner, insn)) {
                return true;
            }
        }
        return false;
    }

    /** Instructions whose first operand is register {@code name} and that write it (stores and branches do not). */
    private static void definitions(Block b, String name, List<Instruction> out) {
        for (Statement s : b.statements()) {
            if (s instanceof Block inner) {
                definitions(inner, name, out);
            } else if (s instanceof Instruction i && !i.operands().isEmpty()
                    && !Set.of("st", "bra", "call", "ret", "tex", "red", "sust", "bar", "membar").contains(i.opcode())
                    && writes(i.operands().get(0), name)) {
                out.add(i);
            }
        }
    }

    private static boolean writes(Operand o, String name) {
        if (o instanceof Expr.SymbolRef r) {
            return r.name().equals(name);
        }
        if (o instanceof Operand.Vector v) {
            return v.elements().stream().anyMatch(e -> writes(e, name));
        }
        if (o instanceof Operand.Pair p) {
            return writes(p.first(), name) || writes(p.second(), name);
        }
        return false;
    }
}
