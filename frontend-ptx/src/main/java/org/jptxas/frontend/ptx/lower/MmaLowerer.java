package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.elements;
import static org.jptxas.frontend.ptx.lower.Fragments.part;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code mma.sync.aligned.SHAPE.row.col.DTYPE.ATYPE.BTYPE.CTYPE {d...}, {a...}, {b...}, {c...}}: one warp-level
 * multiply on register tuples, as ptxas writes it: the fragments of A, B and C are copied into tuples (register
 * allocation coalesces the copies where it can), the multiply writes a tuple D, which is copied out.
 *
 * <table>
 *   <caption>PTX forms and their SASS</caption>
 *   <tr><th>PTX</th><th>SASS</th><th>A, B, C/D registers</th></tr>
 *   <tr><td>m16n8k16 f32.f16.f16.f32</td><td>HMMA.16816.F32</td><td>4, 2, 4</td></tr>
 *   <tr><td>m16n8k16 f16.f16.f16.f16</td><td>HMMA.16816.F16</td><td>4, 2, 2</td></tr>
 *   <tr><td>m16n8k16 f32.bf16.bf16.f32</td><td>HMMA.16816.F32.BF16</td><td>4, 2, 4</td></tr>
 *   <tr><td>m16n8k8 f32.f16.f16.f32 / f16...f16 / f32.bf16.bf16.f32</td><td>HMMA.1688.F32 / .F16 / .F32.BF16</td>
 *       <td>2, 1, 4 / 2</td></tr>
 *   <tr><td>m8n8k4 f16.f16.f16.f16 / f32.f16.f16.f32 / f32.f16.f16.f16 (each layout of A and B)</td>
 *       <td>{@link QuadPairMma}</td><td>2, 2, 4 / 8</td></tr>
 *   <tr><td>m16n8k32 / m16n8k16 / m8n8k16 s32.s8.s8.s32 (u8, and A and B of mixed sign)</td><td>IMMA.16832 / .16816 / .8816 .S8.S8[.SAT]</td>
 *       <td>4, 2, 4 / 2, 1, 4 / 1, 1, 2</td></tr>
 *   <tr><td>m16n8k64 / m16n8k32 / m8n8k32 s32.s4.s4.s32 (u4, mixed)</td><td>IMMA.16864 / .16832 / .8832 .S4.S4[.SAT]
 *       ({@link TargetFeature#INT4_IMMA})</td><td>4, 2, 4 / 2, 1, 4 / 1, 1, 2</td></tr>
 *   <tr><td>m16n8k256 / m16n8k128 / m8n8k128 s32.b1.b1.s32.and.popc (.xor.popc)</td><td>BMMA.168256 / .168128 /
 *       .88128 .AND.POPC (.XOR.POPC: {@link TargetFeature#BINARY_MMA_XOR})</td><td>4, 2, 4 / 2, 1, 4 / 1, 1, 2</td></tr>
 *   <tr><td>m16n8k32 / m16n8k16 f32.e4m3.e5m2.f32 (f16 accumulators; A and B each e4m3 or e5m2)</td>
 *       <td>QMMA.16832 / .16816 .F32.E4M3.E5M2 ({@link TargetFeature#FP8_MMA})</td><td>4, 2, 4 / 2, 1, 4</td></tr>
 *   <tr><td>m8n8k4 f64.f64.f64.f64</td><td>DMMA.884 (sm_90: DMMA.8x8x4, a matcher's spelling)</td>
 *       <td>2, 2, 4 (register pairs)</td></tr>
 *   <tr><td>m16n8k4 / m16n8k8 / m16n8k16 f64.f64.f64.f64 (sm_90)</td><td>DMMA.16x8x4 / .16x8x8 / .16x8x16</td>
 *       <td>4, 2, 8 / 8, 4, 8 / 16, 8, 8 (tuples of eight aligned to eight, of sixteen to sixteen, as ptxas places
 *       them)</td></tr>
 * </table>
 *
 * Which of these a target has is its SASS table's business (m16n8k16 and bf16 need sm_80; the front end's checks
 * already refuse PTX a target lacks). A target without 4-bit IMMA, BMMA .XOR.POPC or QMMA (sm_90) gets the form from
 * two multiplies it has ({@link WidenedMma}). {@code mma.sp} (sparse A) is {@link SparseMma}. Other shapes and types
 * are refused by name.
 */
@AutoService(InstructionLowerer.class)
public final class MmaLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("mma");
    }

    /** The SASS of one form: opcode, modifiers, and registers of A, B, C and D. */
    record Form(String opcode, List<String> mods, int a, int b, int c, int d) {}

    /** The SASS form of an mma name, or null when jptxas does not lower it. */
    static Form form(List<String> mods) {
        String shape = null;
        boolean sat = false;
        String bitOp = null;
        boolean popc = false;
        List<String> types = new ArrayList<>();
        for (String m : mods) {
            switch (m) {
                case "sync", "aligned", "row", "col" -> { }
                case "and", "xor" -> bitOp = m;
                case "popc" -> popc = true;
                case "m16n8k16", "m16n8k8", "m8n8k4", "m16n8k32", "m16n8k4", "m8n8k16", "m16n8k64", "m8n8k32",
                        "m16n8k256", "m16n8k128", "m8n8k128" -> shape = m;
                case "f16", "bf16", "f32", "f64", "tf32", "s8", "u8", "s4", "u4", "b1", "s32", "e4m3", "e5m2" ->
                        types.add(m);
                case "satfinite" -> sat = true;
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || types.size() != 4 || !mods.contains("row") || !mods.contains("col")) {
            return null;
        }
        if (types.get(1).startsWith("e") && types.get(2).startsWith("e")) {
            return fp8(shape, types.get(0), types.get(1), types.get(2), types.get(3), sat || bitOp != null || popc);
        }
        String d = types.get(0), in = types.get(1), c = types.get(3);
        if (INTEGER_INPUTS.contains(in) && INTEGER_INPUTS.contains(types.get(2)) && bitOp == null && !popc) {
            return integer(shape, in, types.get(2), d, c, sat);
        }
        if (!types.get(1).equals(types.get(2))) {
            return null;
        }
        if (in.equals("b1") || bitOp != null || popc) {
            return binary(shape, in, d, c, sat, bitOp, popc);
        }
        if (sat) {
            return null;
        }
        if (in.equals("tf32")) {
            boolean ok = d.equals("f32") && c.equals("f32") && (shape.equals("m16n8k8") || shape.equals("m16n8k4"));
            boolean k8 = shape.equals("m16n8k8");
            return ok ? new Form("HMMA", List.of(k8 ? "1688" : "1684", "F32", "TF32"), k8 ? 4 : 2, k8 ? 2 : 1, 4, 4)
                    : null;
        }
        if (shape.equals("m8n8k4")) { // f64 only (f16 m8n8k4 is Volta's quad-pair shape)
            boolean f64 = d.equals("f64") && in.equals("f64") && c.equals("f64");
            return f64 ? new Form("DMMA", List.of("884"), 2, 2, 4, 4) : null;
        }
        if (in.equals("f64")) { // sm_90's m16n8k4, k8 and k16: A is 2, 4 or 8 register pairs, B 1, 2 or 4
            int k = switch (shape) {
                case "m16n8k4" -> 4;
                case "m16n8k8" -> 8;
                case "m16n8k16" -> 16;
                default -> 0;
            };
            boolean ok = d.equals("f64") && c.equals("f64") && k > 0;
            return ok ? new Form("DMMA", List.of("16x8x" + k), k, k / 2, 8, 8) : null;
        }
        boolean k16 = shape.equals("m16n8k16");
        String sass = k16 ? "16816" : "1688";
        int a = k16 ? 4 : 2, b = k16 ? 2 : 1;
        if (in.equals("f16") && d.equals(c)) {
            int acc = d.equals("f32") ? 4 : 2;
            return new Form("HMMA", List.of(sass, d.toUpperCase()), a, b, acc, acc);
        }
        if (in.equals("bf16") && d.equals("f32") && c.equals("f32")) {
            return new Form("HMMA", List.of(sass, "F32", "BF16"), a, b, 4, 4);
        }
        return null;
    }

    /** The integer input types of mma.sync; A and B may differ in signedness, not in width. */
    private static final Set<String> INTEGER_INPUTS = Set.of("s8", "u8", "s4", "u4");

    /**
     * s8/u8 and s4/u4 inputs with s32 accumulation (A and B of one width, each signed or not; {@code .satfinite}
     * clamps): IMMA with A's type then B's, its A and B operands named {@code .ROW} and {@code .COL} as ptxas writes
     * them. A 4-bit shape has twice the 8-bit K in the same registers ({@code IMMA.16864.S4.S4},
     * {@code IMMA.16832.U4.S4}, {@code IMMA.8832.S4.U4}); a target without 4-bit IMMA (sm_90) runs it as two 8-bit
     * IMMA ({@link WidenedMma}).
     */
    private static Form integer(String shape, String in, String inB, String d, String c, boolean sat) {
        if (!d.equals("s32") || !c.equals("s32") || in.charAt(1) != inB.charAt(1)) {
            return null;
        }
        String t = in.toUpperCase(), tb = inB.toUpperCase();
        List<String> types = sat ? List.of(t, tb, "SAT") : List.of(t, tb);
        if (in.endsWith("4")) {
            return switch (shape) {
                case "m16n8k64" -> new Form("IMMA", cat("16864", types), 4, 2, 4, 4);
                case "m16n8k32" -> new Form("IMMA", cat("16832", types), 2, 1, 4, 4);
                case "m8n8k32" -> new Form("IMMA", cat("8832", types), 1, 1, 2, 2);
                default -> null;
            };
        }
        return switch (shape) {
            case "m16n8k32" -> new Form("IMMA", cat("16832", types), 4, 2, 4, 4);
            case "m16n8k16" -> new Form("IMMA", cat("16816", types), 2, 1, 4, 4);
            case "m8n8k16" -> new Form("IMMA", cat("8816", types), 1, 1, 2, 2);
            default -> null;
        };
    }

    /**
     * b1 inputs ({@code .and.popc} / {@code .xor.popc}, s32 accumulation): BMMA, D = C + popc(A op B) per element, its
     * operands named {@code .ROW}/{@code .COL} as IMMA's.
     */
    private static Form binary(String shape, String in, String d, String c, boolean sat, String op, boolean popc) {
        if (!in.equals("b1") || op == null || !popc || sat || !d.equals("s32") || !c.equals("s32")) {
            return null;
        }
        List<String> mods = List.of(op.toUpperCase(), "POPC");
        return switch (shape) {
            case "m16n8k256" -> new Form("BMMA", cat("168256", mods), 4, 2, 4, 4);
            case "m16n8k128" -> new Form("BMMA", cat("168128", mods), 2, 1, 4, 4);
            case "m8n8k128" -> new Form("BMMA", cat("88128", mods), 1, 1, 2, 2);
            default -> null;
        };
    }

    /**
     * e4m3/e5m2 inputs (A and B each its own type), f32 or f16 accumulation, m16n8k32 / m16n8k16: QMMA.16832 /
     * QMMA.16816, its operands named
     * {@code .ROW}/{@code .COL} as IMMA's ({@link TargetFeature#FP8_MMA}).
     */
    private static Form fp8(String shape, String d, String a, String b, String c, boolean extra) {
        boolean k32 = shape.equals("m16n8k32");
        if (extra || !k32 && !shape.equals("m16n8k16") || !d.equals(c) || !(d.equals("f32") || d.equals("f16"))) {
            return null;
        }
        int acc = d.equals("f32") ? 4 : 2;
        return new Form("QMMA", List.of(k32 ? "16832" : "16816", d.toUpperCase(), a.toUpperCase(), b.toUpperCase()),
                k32 ? 4 : 2, k32 ? 2 : 1, acc, acc);
    }

    private static List<String> cat(String shape, List<String> types) {
        List<String> l = new ArrayList<>(List.of(shape));
        l.addAll(types);
        return List.copyOf(l);
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<String> mods = insn.modifiers();
        if (SparseMma.sparse(mods)) {
            SparseMma.lower(insn, cx);
            return;
        }
        if (QuadPairMma.handles(mods)) {
            QuadPairMma.lower(insn, cx);
            return;
        }
        Form f = form(mods);
        if (f == null) {
            throw cx.unsupported("this shape or type combination");
        }
        List<Operand> ops = insn.operands();
        if (ops.size() != 4) {
            throw cx.unsupported("operand count");
        }
        boolean wide = f.opcode().equals("DMMA");
        Reg a = tuple(cx, ops.get(1), f.a(), wide);
        Reg b = tuple(cx, ops.get(2), f.b(), wide);
        Reg c = tuple(cx, ops.get(3), f.c(), wide);
        Reg d = multiply(cx, f, a, b, c);
        List<Operand> out = elements(ops.get(0));
        int per = wide ? 2 : 1;
        if (out.size() * per != f.d()) {
            throw cx.unsupported("destination count");
        }
        for (int k = 0; k < out.size(); k++) {
            if (out.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg r = cx.dst(out.get(k), wide ? PtxType.B64 : PtxType.B32);
            for (int q = 0; q < per; q++) {
                cx.emit("MOV", List.of(), List.of(wide ? r.component(q) : r), List.of(Src.of(part(d, per * k + q))));
            }
        }
    }

    /**
     * The multiply of form {@code f} on the tuples {@code a}, {@code b}, {@code c}: its D tuple (from two multiplies
     * the target has when it lacks the form, {@link WidenedMma}).
     */
    static Reg multiply(LoweringContext cx, Form f, Reg a, Reg b, Reg c) {
        if (f.opcode().equals("IMMA") && f.mods().get(1).endsWith("4") && !cx.profile().has(TargetFeature.INT4_IMMA)) {
            return WidenedMma.int4(cx, f, a, b, c);
        } else if (f.opcode().equals("QMMA") && !cx.profile().has(TargetFeature.FP8_MMA)) {
            return WidenedMma.fp8(cx, f, a, b, c);
        } else if (f.opcode().equals("BMMA") && f.mods().contains("XOR")
                && !cx.profile().has(TargetFeature.BINARY_MMA_XOR)) {
            return WidenedMma.xorPopc(cx, f, a, b, c);
        }
        Reg d = cx.newReg(RegFile.R, f.d());
        cx.emit(f.opcode(), f.mods(), List.of(d), List.of(Src.of(a), Src.of(b), Src.of(c)));
        return d;
    }

    /** A fragment's registers copied into a fresh tuple of {@code n} 32-bit registers ({@code wide}: f64 elements). */
    private static Reg tuple(LoweringContext cx, Operand fragment, int n, boolean wide) throws CompilationException {
        List<Operand> els = elements(fragment);
        int per = wide ? 2 : 1;
        if (els.size() * per != n) {
            throw cx.unsupported("fragment of " + els.size() + " registers");
        }
        Reg t = cx.newReg(RegFile.R, n);
        for (int k = 0; k < els.size(); k++) {
            Src e = cx.src(els.get(k), wide ? PtxType.B64 : PtxType.B32);
            for (int c = 0; c < per; c++) {
                cx.emit("MOV", List.of(), List.of(part(t, per * k + c)), List.of(wide ? Ptx.part(e, c) : e));
            }
        }
        return t;
    }
}
