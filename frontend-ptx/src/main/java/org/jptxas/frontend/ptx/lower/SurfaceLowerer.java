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
 * {@code suld.b.2d.b32{.trap} {d}, [h, {x, y}]} and {@code sust.b.2d.b32{.trap} [h, {x, y}], {v}} with a bindless
 * {@code .u64} surface handle that a kernel parameter holds, as ptxas 13 writes them: {@code SULD.D.BA.2D.STRONG.SM.TRAP
 * Rd, [Ra], 0x0, off} and {@code SUST.D.BA.2D.STRONG.SM.TRAP [Ra], Rb, 0x0, off} (byte-addressed x; the pair Ra holds
 * x, y; sm_75 prints the scope {@code .CTA}), the handle the parameter's constant-bank word offset as for textures
 * ({@link TextureLowerer}); where the target takes texture handles in a uniform register
 * ({@link TargetFeature#TEXTURE_HANDLE_IN_UR}, sm_90) the handle's low word is loaded into one and the instruction
 * names it ({@code [Ra], UR4, 0x0}). {@code sured.b.{add,min,max,and,or}.2d.{u32,s32,b32}{.trap} [h, {x, y}], v} is
 * {@code SURED.D.BA.2D.ADD.STRONG.SYS.TRAP [Ra], Rb, 0x0, off} likewise (a signed add, minimum or maximum
 * {@code .S32}; the reduction's scope {@code .SYS}, as ptxas writes it on every target). Other geometries, widths, vectors, the {@code .clamp}/{@code .zero} modes,
 * formatted ({@code .p}) access, {@code .surfref}s and handles from elsewhere are not yet supported.
 */
@AutoService(InstructionLowerer.class)
public final class SurfaceLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("suld", "sust", "sured");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean load = insn.opcode().equals("suld");
        boolean reduce = insn.opcode().equals("sured");
        String reduction = reduce ? reduction(insn) : null;
        if (reduce && reduction == null) {
            throw cx.unsupported("surface reduction");
        }
        if (!insn.hasModifier("b") || !insn.hasModifier("2d") || !reduce && !insn.hasModifier("b32") || insn.hasModifier("clamp")
                || insn.hasModifier("zero") || insn.hasModifier("v2") || insn.hasModifier("v4")) {
            throw cx.unsupported("surface form");
        }
        if (insn.operands().size() != 2) {
            throw cx.unsupported("operand form");
        }
        Operand addrOp = insn.operands().get(load ? 1 : 0);
        Operand dataOp = insn.operands().get(load ? 0 : 1);
        if (!(addrOp instanceof Operand.Address addr) || addr.parts().size() != 2
                || !(addr.parts().get(1) instanceof Operand.Vector cv) || cv.elements().size() < 2) {
            throw cx.unsupported("operand form");
        }
        if (dataOp instanceof Operand.Vector dv) {
            if (dv.elements().size() != 1) {
                throw cx.unsupported("operand form");
            }
            dataOp = dv.elements().get(0);
        }
        Object handle = TextureLowerer.handleOf(insn, addr.parts().get(0), cx);
        if (handle instanceof Sym) {
            throw cx.unsupported("surface reference");
        }
        Reg coords = tuple(cx, List.of(cx.src(cv.elements().get(0), PtxType.S32), cx.src(cv.elements().get(1), PtxType.S32)));
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(Addr.of(coords, 0)));
        if (!load) {
            srcs.add(cx.src(dataOp, PtxType.B32));
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
        if (reduce) {
            List<String> mods = new ArrayList<>(List.of("D", "BA", "2D"));
            mods.addAll(List.of(reduction.split("\\.")));
            mods.addAll(List.of("STRONG", "SYS", "TRAP"));
            cx.emit("SURED", mods, List.of(), srcs);
            return;
        }
        List<String> mods = List.of("D", "BA", "2D", "STRONG", "SM", "TRAP");
        if (load) {
            Reg d = cx.dst(dataOp, PtxType.B32);
            cx.emit("SULD", mods, List.of(d), srcs);
        } else {
            cx.emit("SUST", mods, List.of(), srcs);
        }
    }

    /** The SASS operation of a {@code sured.b}: {@code ADD}, {@code MIN.S32}, ...; null for an unsupported one. */
    private static String reduction(Instruction insn) {
        boolean signed = insn.hasModifier("s32");
        if (!signed && !insn.hasModifier("u32") && !insn.hasModifier("b32")) {
            return null;
        }
        for (String op : List.of("add", "min", "max")) {
            if (insn.hasModifier(op)) {
                return op.toUpperCase() + (signed ? ".S32" : "");
            }
        }
        for (String op : List.of("and", "or")) {
            if (insn.hasModifier(op)) {
                return op.toUpperCase();
            }
        }
        return null;
    }
}
