package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.elements;
import static org.jptxas.frontend.ptx.lower.Fragments.part;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code mma.sp[::ordered_metadata].sync.aligned.SHAPE.row.col[.satfinite].D.A.B.C d, a, b, c, e, f}: the warp-level
 * multiply with a 2:4-sparse A (half of A's k stored, metadata {@code e} naming the kept positions, selector {@code f}
 * naming the lanes that hold it), one SASS instruction as ptxas 13 writes it: {@code HMMA.SP}, {@code IMMA.SP} or
 * {@code QMMA.SP} with the dense shape's name, on tuples of A (half the dense registers), B, C, the metadata register
 * and the selector as an immediate. {@code ::ordered_metadata} promises ascending indices; the SASS is the same.
 *
 * <table>
 *   <caption>PTX forms and their SASS (A, B, C/D registers)</caption>
 *   <tr><td>m16n8k16 / m16n8k32 f16 (f16 or f32 accumulation), bf16 (f32)</td>
 *       <td>HMMA.SP.16816 / .16832 .F16 / .F32 / .F32.BF16</td><td>2, 2 / 4, 4; 2 or 4</td></tr>
 *   <tr><td>m16n8k8 / m16n8k16 tf32</td><td>HMMA.SP.1688 / .16816 .F32.TF32</td><td>2, 2 / 4, 4; 4</td></tr>
 *   <tr><td>m16n8k32 / m16n8k64 s8/u8 (each sign, .satfinite)</td><td>IMMA.SP.16832 / .16864 .S8.U8[.SAT]</td>
 *       <td>2, 2 / 4, 4; 4</td></tr>
 *   <tr><td>m16n8k64 / m16n8k128 s4/u4</td><td>IMMA.SP.16864 / .168128 .S4.U4[.SAT]
 *       ({@link TargetFeature#INT4_IMMA})</td><td>2, 2 / 4, 4; 4</td></tr>
 *   <tr><td>m16n8k64 e4m3/e5m2, f32 accumulation</td><td>QMMA.SP.16864.F32.E4M3.E5M2
 *       ({@link TargetFeature#FP8_MMA})</td><td>4, 4; 4</td></tr>
 * </table>
 *
 * sm_90 has neither 4-bit IMMA nor QMMA; ptxas expands those sparse forms there (subroutine calls for 4-bit, fp8
 * unpacked to f16 with a rearranged metadata word); jptxas refuses them by name on such a target.
 */
final class SparseMma {
    private SparseMma() {}

    /** Whether {@code mods} name a sparse multiply. */
    static boolean sparse(List<String> mods) {
        return mods.contains("sp") || mods.contains("sp::ordered_metadata");
    }

    /** The dense modifiers of a sparse name: the sparsity word dropped. */
    private static List<String> dense(List<String> mods) {
        return mods.stream().filter(m -> !m.equals("sp") && !m.equals("sp::ordered_metadata")).toList();
    }

    /**
     * The SASS form of a sparse mma name (opcode, modifiers with {@code SP} first, registers of A, B, C, D), or null
     * when no such form exists.
     */
    static MmaLowerer.Form form(List<String> mods) {
        List<String> d = dense(mods);
        String shape = null;
        boolean sat = false;
        List<String> types = new ArrayList<>();
        for (String m : d) {
            switch (m) {
                case "sync", "aligned", "row", "col" -> { }
                case "m16n8k8", "m16n8k16", "m16n8k32", "m16n8k64", "m16n8k128" -> shape = m;
                case "f16", "bf16", "f32", "tf32", "s8", "u8", "s4", "u4", "s32", "e4m3", "e5m2" -> types.add(m);
                case "satfinite" -> sat = true;
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || types.size() != 4 || !d.contains("row") || !d.contains("col")) {
            return null;
        }
        String dt = types.get(0), a = types.get(1), b = types.get(2), c = types.get(3);
        int k = Integer.parseInt(shape.substring(shape.indexOf('k') + 1));
        String name = "168" + k;
        boolean integer = a.matches("[su][48]") && b.matches("[su][48]") && a.charAt(1) == b.charAt(1);
        if (integer) {
            boolean bytes = a.endsWith("8");
            int regs = bytes ? (k == 32 ? 2 : k == 64 ? 4 : 0) : (k == 64 ? 2 : k == 128 ? 4 : 0);
            if (regs == 0 || !dt.equals("s32") || !c.equals("s32")) {
                return null;
            }
            List<String> m = new ArrayList<>(List.of("SP", name, a.toUpperCase(), b.toUpperCase()));
            if (sat) {
                m.add("SAT");
            }
            return new MmaLowerer.Form("IMMA", List.copyOf(m), regs, regs, 4, 4);
        }
        if (sat) {
            return null;
        }
        if (a.startsWith("e") && b.startsWith("e")) { // e4m3/e5m2, f32 accumulation
            boolean ok = k == 64 && dt.equals("f32") && c.equals("f32");
            return ok ? new MmaLowerer.Form("QMMA", List.of("SP", name, "F32", a.toUpperCase(), b.toUpperCase()), 4, 4,
                    4, 4) : null;
        }
        if (!a.equals(b) || !dt.equals(c)) {
            return null;
        }
        int regs = switch (a) {
            case "f16", "bf16" -> k == 16 ? 2 : k == 32 ? 4 : 0;
            case "tf32" -> k == 8 ? 2 : k == 16 ? 4 : 0;
            default -> 0;
        };
        boolean f32 = dt.equals("f32");
        if (regs == 0 || !f32 && !(dt.equals("f16") && a.equals("f16"))) {
            return null;
        }
        List<String> m = new ArrayList<>(List.of("SP", name, dt.toUpperCase()));
        if (!a.equals("f16")) {
            m.add(a.toUpperCase());
        }
        return new MmaLowerer.Form("HMMA", List.copyOf(m), regs, regs, f32 ? 4 : 2, f32 ? 4 : 2);
    }

    /** Lowers a sparse mma (its name checked by {@link #form}). */
    static void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MmaLowerer.Form f = form(insn.modifiers());
        if (f == null) {
            throw cx.unsupported("this sparse shape or type combination");
        }
        if (f.opcode().equals("QMMA") && !cx.profile().has(TargetFeature.FP8_MMA)) {
            throw cx.unsupported("sparse fp8 mma on a target without QMMA");
        }
        if (f.opcode().equals("IMMA") && f.mods().get(2).endsWith("4") && !cx.profile().has(TargetFeature.INT4_IMMA)) {
            throw cx.unsupported("sparse 4-bit mma on a target without 4-bit IMMA");
        }
        List<Operand> ops = insn.operands();
        if (ops.size() != 6) {
            throw cx.unsupported("operand count");
        }
        if (!(ops.get(5) instanceof Expr.IntLit selector)) {
            throw cx.unsupported("a sparsity selector that is not a literal");
        }
        Reg a = tuple(cx, ops.get(1), f.a());
        Reg b = tuple(cx, ops.get(2), f.b());
        Reg c = tuple(cx, ops.get(3), f.c());
        Src e = cx.src(ops.get(4), PtxType.B32);
        Reg d = cx.newReg(RegFile.R, f.d());
        cx.emit(f.opcode(), f.mods(), List.of(d),
                List.of(Src.of(a), Src.of(b), Src.of(c), e, Src.of(new Imm(selector.value()))));
        List<Operand> out = elements(ops.get(0));
        if (out.size() != f.d()) {
            throw cx.unsupported("destination count");
        }
        for (int k = 0; k < out.size(); k++) {
            if (!(out.get(k) instanceof Operand.Sink)) {
                cx.emit("MOV", List.of(), List.of(cx.dst(out.get(k), PtxType.B32)), List.of(Src.of(part(d, k))));
            }
        }
    }

    private static Reg tuple(LoweringContext cx, Operand fragment, int n) throws CompilationException {
        return Fragments.tuple(cx, Fragments.registers(cx, fragment, n));
    }
}
