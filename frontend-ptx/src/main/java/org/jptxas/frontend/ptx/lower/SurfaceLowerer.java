package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code suld.b.GEOM{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [h, c]} and {@code sust.b} likewise, with a
 * bindless {@code .u64} surface handle that a kernel parameter holds, as ptxas 13 writes them:
 * {@code SULD.D.BA.2D{.SIZE}.STRONG.SM.TRAP Rd, [Ra], 0x0, off} and {@code SUST.D.BA.2D{.SIZE}.STRONG.SM.TRAP [Ra], Rb,
 * 0x0, off} (sm_75 prints the scope {@code .CTA}). The geometry is {@code 1D}, {@code 2D}, {@code 3D},
 * {@code 1D_ARRAY} or {@code 2D_ARRAY}; the tuple Ra holds x in bytes, then y, z and last the array layer (PTX names
 * the layer first). The access size is {@code .U8}, {@code .U16}, none (32 bits), {@code .64} or {@code .128}
 * (the data in 1, 2 or 4 consecutive registers: {@code .v2.b32} and {@code .b64} are {@code .64}, {@code .v4.b32}
 * and {@code .v2.b64} {@code .128}); out-of-bounds accesses trap ({@code .TRAP}), are clamped (no modifier) or are
 * ignored, loads reading zero ({@code .IGN}). The handle is the parameter's constant-bank word offset as for
 * textures ({@link TextureLowerer}); where the target takes texture handles in a uniform register
 * ({@link TargetFeature#TEXTURE_HANDLE_IN_UR}, sm_90) the handle's low word is loaded into one and the instruction
 * names it ({@code [Ra], UR4, 0x0}). {@code sured.b.{add,min,max,and,or}.{1d,2d,3d}.TYPE [h, c], v} is
 * {@code SURED.D.BA.2D.ADD.STRONG.SYS.TRAP [Ra], Rb, 0x0, off} likewise: a signed 32-bit add, minimum or maximum is
 * {@code .S32}, 64-bit ones {@code .U64}/{@code .S64} on a register pair; the reduction's scope is {@code .SYS}, as
 * ptxas writes it on every target. Vectors of 8- or 16-bit elements (which ptxas packs into words), formatted
 * ({@code .p}) access, {@code .surfref}s and handles from elsewhere are refused by name.
 */
@AutoService(InstructionLowerer.class)
public final class SurfaceLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("suld", "sust", "sured");
    }

    /** A PTX surface geometry: its SASS name, and which coordinate of the PTX vector goes to each register of Ra. */
    private record Geometry(String ptx, String sass, int[] order) {}

    private static final List<Geometry> GEOMETRIES = List.of(
            new Geometry("1d", "1D", new int[] {0}),
            new Geometry("2d", "2D", new int[] {0, 1}),
            new Geometry("3d", "3D", new int[] {0, 1, 2}),
            new Geometry("a1d", "1D_ARRAY", new int[] {1, 0}),
            new Geometry("a2d", "2D_ARRAY", new int[] {1, 2, 0}));

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean load = insn.opcode().equals("suld");
        boolean reduce = insn.opcode().equals("sured");
        Geometry geometry = GEOMETRIES.stream().filter(g -> insn.hasModifier(g.ptx())).findFirst().orElse(null);
        if (insn.hasModifier("p")) {
            throw cx.unsupported("formatted surface access (." + insn.opcode() + ".p)");
        }
        if (!insn.hasModifier("b") || geometry == null || reduce && geometry.order().length > 3) {
            throw cx.unsupported("surface form");
        }
        int vector = insn.hasModifier("v4") ? 4 : insn.hasModifier("v2") ? 2 : 1;
        int elementBits = insn.hasModifier("b8") ? 8 : insn.hasModifier("b16") ? 16 : insn.hasModifier("b64")
                || insn.hasModifier("u64") || insn.hasModifier("s64") ? 64 : 32;
        String reduction = reduce ? reduction(insn, elementBits == 64) : null;
        if (vector > 1 && elementBits < 32) {
            throw cx.unsupported("vectors of 8- and 16-bit surface elements");
        }
        if (reduce && reduction == null || vector * elementBits > 128) {
            throw cx.unsupported("surface form");
        }
        if (insn.operands().size() != 2) {
            throw cx.unsupported("operand form");
        }
        Operand addrOp = insn.operands().get(load ? 1 : 0);
        Operand dataOp = insn.operands().get(load ? 0 : 1);
        int coordinates = geometry.order().length;
        if (!(addrOp instanceof Operand.Address addr) || addr.parts().size() != 2) {
            throw cx.unsupported("operand form");
        }
        List<Operand> given = Fragments.elements(addr.parts().get(1));
        if (given.size() < coordinates) {
            throw cx.unsupported("operand form");
        }
        List<Operand> data = Fragments.elements(dataOp);
        if (data.size() != vector) {
            throw cx.unsupported("operand form");
        }
        Object handle = TextureLowerer.handleOf(insn, addr.parts().get(0), cx);
        if (handle instanceof Sym) {
            throw cx.unsupported("surface reference");
        }
        List<Src> c = new ArrayList<>();
        for (int k : geometry.order()) {
            c.add(cx.src(given.get(k), PtxType.S32));
        }
        Reg coords = tuple(cx, c);
        PtxType element = elementBits == 64 ? PtxType.B64 : elementBits == 16 ? PtxType.B16
                : elementBits == 8 ? PtxType.B8 : PtxType.B32;
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(Addr.of(coords, 0)));
        if (!load) {
            srcs.add(storedData(cx, data, element));
        }
        if (cx.profile().has(TargetFeature.TEXTURE_HANDLE_IN_UR)) {
            Reg h = cx.newReg(RegFile.UR, 1);
            cx.emit("ULDC", List.of(), List.of(h), List.of(Src.of(CBank.of(0, (Integer) handle))));
            srcs.add(Src.of(h));
            srcs.add(Src.of(Imm.ofInt(0)));
        } else {
            srcs.add(Src.of(Imm.ofInt(0)));
            srcs.add(Src.of(Imm.ofInt((Integer) handle / 4)));
        }
        List<String> mods = new ArrayList<>(List.of("D", "BA", geometry.sass()));
        String mode = insn.hasModifier("clamp") ? null : insn.hasModifier("zero") ? "IGN" : "TRAP";
        if (reduce) {
            mods.addAll(List.of(reduction.split("\\.")));
            mods.addAll(List.of("STRONG", "SYS"));
        } else {
            String size = size(vector * elementBits);
            if (size != null) {
                mods.add(size);
            }
            mods.addAll(List.of("STRONG", "SM"));
        }
        if (mode != null) {
            mods.add(mode);
        }
        if (!load) {
            cx.emit(reduce ? "SURED" : "SUST", mods, List.of(), srcs);
            return;
        }
        int words = vector * elementBits / 32;
        if (vector == 1) {
            cx.emit("SULD", mods, List.of(cx.dst(data.get(0), element)), srcs);
            return;
        }
        Reg loaded = cx.newReg(RegFile.R, words);
        cx.emit("SULD", mods, List.of(loaded), srcs);
        int per = elementBits / 32;
        for (int k = 0; k < vector; k++) {
            if (data.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg d = cx.dst(data.get(k), element);
            for (int w = 0; w < per; w++) {
                cx.emit("MOV", List.of(), List.of(per == 1 ? d : d.component(w)),
                        List.of(Src.of(loaded.component(k * per + w))));
            }
        }
    }

    /** The SASS size modifier of an access of {@code bits}: {@code U8}, {@code U16}, none, {@code 64}, {@code 128}. */
    private static String size(int bits) {
        return switch (bits) {
            case 8 -> "U8";
            case 16 -> "U16";
            case 64 -> "64";
            case 128 -> "128";
            default -> null;
        };
    }

    /** The stored value: one register as PTX names it, or the elements' 32-bit words copied into a fresh tuple. */
    private static Src storedData(LoweringContext cx, List<Operand> data, PtxType element) throws CompilationException {
        if (data.size() == 1 && element != PtxType.B64) {
            return cx.src(data.get(0), element);
        }
        List<Src> parts = new ArrayList<>();
        for (Operand e : data) {
            Src s = cx.src(e, element);
            if (element == PtxType.B64) {
                parts.add(Ptx.lo(s));
                parts.add(Ptx.hi(s));
            } else {
                parts.add(s);
            }
        }
        return Src.of(tuple(cx, parts));
    }

    /**
     * The SASS operation of a {@code sured.b}: {@code ADD}, {@code MIN.S32}, {@code MAX.U64}, ...; null for an
     * unsupported one (ptxas accepts {@code add} of u32, s32, u64; {@code min}/{@code max} of u32, s32, u64, s64;
     * {@code and}/{@code or} of b32).
     */
    private static String reduction(Instruction insn, boolean wide) {
        boolean signed = insn.hasModifier("s32") || insn.hasModifier("s64");
        if (!signed && !insn.hasModifier("u32") && !insn.hasModifier("b32") && !insn.hasModifier("u64")) {
            return null;
        }
        String type = wide ? (signed ? ".S64" : ".U64") : signed ? ".S32" : "";
        for (String op : List.of("add", "min", "max")) {
            if (insn.hasModifier(op)) {
                return op.toUpperCase() + type;
            }
        }
        for (String op : List.of("and", "or")) {
            if (insn.hasModifier(op) && !wide) {
                return op.toUpperCase();
            }
        }
        return null;
    }
}
