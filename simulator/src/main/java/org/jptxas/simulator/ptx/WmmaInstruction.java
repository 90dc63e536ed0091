package org.jptxas.simulator.ptx;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.WarpMma;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;

/**
 * {@code wmma.mma.sync.aligned.row.col.m16n16k16.{f16.f16, f32.f32}} and
 * {@code wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32} for the interpreter, in ptxas's fragment layout
 * (the PTX ISA leaves it unspecified; jptxas's lowering uses the same): A's registers 0-3 are the A fragment of
 * {@code mma.m16n8k16} (tf32: {@code m16n8k8}), f16 A registers 4-7 are not read; B's registers 0-1 and 2-3 are the B
 * fragments of the left and right 8 columns (f16 registers 4-7 not read); C and D hold the left half's accumulator
 * fragment, then the right half's. Each half is one {@link WarpMma} multiply (one rounding; the compilers' chains of
 * shorter HMMA round once per step, within the tolerance the suite's references allow).
 */
final class WmmaInstruction {
    private WmmaInstruction() {}

    /** The multiply of one 16 x 8 half, or null when the interpreter does not implement the form. */
    static Spec spec(List<String> mods) {
        String shape = null;
        List<String> types = new ArrayList<>();
        List<String> layouts = new ArrayList<>();
        for (String m : mods) {
            switch (m) {
                case "mma", "sync", "aligned" -> { }
                case "row", "col" -> layouts.add(m);
                case "m16n16k16", "m16n16k8" -> shape = m;
                case "f16", "f32", "tf32" -> types.add(m);
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || !layouts.equals(List.of("row", "col"))) {
            return null;
        }
        if (shape.equals("m16n16k8")) {
            return types.equals(List.of("f32", "tf32", "tf32", "f32"))
                    ? new Spec(16, 8, 8, Type.TF32, Type.F32, Type.F32, false) : null;
        }
        if (types.size() != 2 || !types.get(0).equals(types.get(1)) || types.contains("tf32")) {
            return null;
        }
        Type acc = types.get(0).equals("f32") ? Type.F32 : Type.F16;
        return new Spec(16, 8, 16, Type.F16, acc, acc, false);
    }

    /** The warp operation of {@code d, a, b, c} for halves of {@code half}. */
    static Insn.WarpOp compile(Spec half, List<Operand> ops, MmaInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 4) {
            throw new InstructionCompiler.Unsupported("wmma.mma with " + ops.size() + " operands");
        }
        boolean f16 = half.ab() == Type.F16;
        int acc = half.cRegs();
        int[] d = dsts(ops.get(0), 2 * acc, io);
        Src[] a = srcs(ops.get(1), f16 ? 8 : 4, io), b = srcs(ops.get(2), f16 ? 8 : 4, io);
        Src[] c = srcs(ops.get(3), 2 * acc, io);
        return (lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("wmma.mma.sync needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[][] ra = new int[32][4];
            int[][][] rb = new int[2][32][2], rc = new int[2][32][acc];
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4; i++) {
                    ra[l][i] = (int) a[i].get(lanes[l]);
                }
                for (int h = 0; h < 2; h++) {
                    for (int i = 0; i < 2; i++) {
                        rb[h][l][i] = (int) b[2 * h + i].get(lanes[l]);
                    }
                    for (int i = 0; i < acc; i++) {
                        rc[h][l][i] = (int) c[acc * h + i].get(lanes[l]);
                    }
                }
            }
            int[][][] rd = {WarpMma.multiply(half, ra, rb[0], rc[0]), WarpMma.multiply(half, ra, rb[1], rc[1])};
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    Values.write(lanes[l], d[i], rd[i / acc][l][i % acc] & 0xffffffffL);
                }
            }
        };
    }

    private static List<Operand> elements(Operand o) {
        return o instanceof Operand.Vector v ? v.elements() : List.of(o);
    }

    private static int[] dsts(Operand o, int n, MmaInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> e = elements(o);
        if (e.size() != n) {
            throw new InstructionCompiler.Unsupported("wmma fragment of " + e.size() + " registers");
        }
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = io.dst(e.get(i));
        }
        return r;
    }

    private static Src[] srcs(Operand o, int n, MmaInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> e = elements(o);
        if (e.size() != n) {
            throw new InstructionCompiler.Unsupported("wmma fragment of " + e.size() + " registers");
        }
        Src[] r = new Src[n];
        for (int i = 0; i < n; i++) {
            r[i] = io.src(e.get(i), PtxType.B32);
        }
        return r;
    }
}
