package org.jptxas.simulator.ptx;

import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.Texture;

/**
 * {@code tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} d, [h, c]} for the interpreter, with a bindless handle in a
 * register: float coordinates sample ({@link Texture#sample}), integer ones fetch ({@link Texture#fetch}). The four
 * result words are the texture's (float bits or integers, whatever the destination type says, as the hardware's:
 * the type does not reach the instruction). Bound {@code .texref}s, arrays, cubes, explicit levels and gradients are
 * not interpreted. Also {@code suld.b.{1d,2d,3d}.{b8,b16,b32,b64}{.trap} {d}, [h, {x, ...}]} and {@code sust.b}
 * likewise: raw bytes at x bytes into row (y, z) of the surface ({@link Texture#surfaceAddress}; out of bounds
 * traps, the {@code .trap} mode, the default); {@code .clamp}, {@code .zero}, vectors and {@code .p} are not.
 */
final class TextureInstruction {
    private TextureInstruction() {}

    /** The per-thread operation of {@code tex{.MODS}}, or null when the interpreter does not implement the form. */
    static Insn.ThreadOp compile(List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int rank = mods.contains("1d") ? 1 : mods.contains("2d") ? 2 : mods.contains("3d") ? 3 : 0;
        if (rank == 0 || !mods.contains("v4") || ops.size() != 2 || !(ops.get(0) instanceof Operand.Vector dv)
                || dv.elements().size() != 4 || !(ops.get(1) instanceof Operand.Address addr)
                || addr.parts().size() != 2) {
            return null;
        }
        boolean fetch = mods.get(mods.size() - 1).equals("s32");
        if (!fetch && !mods.get(mods.size() - 1).equals("f32")
                || !Set.of("f32", "s32", "u32").contains(mods.get(mods.size() - 2))) {
            return null;
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        Src[] coords = coordinates(addr, rank, fetch ? PtxType.S32 : PtxType.F32, io);
        if (coords == null) {
            return null;
        }
        int[] dst = new int[4];
        for (int k = 0; k < 4; k++) {
            dst[k] = io.dst(dv.elements().get(k));
        }
        return t -> {
            int[] words;
            try {
                Texture tex = t.machine.launch.texture(handle.get(t));
                if (tex.rank() != rank) {
                    throw new IllegalArgumentException("tex." + rank + "d on a " + tex.rank() + "-dimensional texture");
                }
                if (fetch) {
                    int[] at = new int[rank];
                    for (int d = 0; d < rank; d++) {
                        at[d] = (int) coords[d].get(t);
                    }
                    words = tex.fetch(t.machine.launch.global(), at);
                } else {
                    float[] at = new float[rank];
                    for (int d = 0; d < rank; d++) {
                        at[d] = Float.intBitsToFloat((int) coords[d].get(t));
                    }
                    words = tex.sample(t.machine.launch.global(), at);
                }
            } catch (IllegalArgumentException e) {
                throw new InterpreterError(e.getMessage());
            }
            for (int k = 0; k < 4; k++) {
                if (dst[k] >= 0) {
                    Values.write(t, dst[k], words[k] & 0xffffffffL);
                }
            }
        };
    }
    /** The per-thread operation of {@code suld{.MODS}} or {@code sust{.MODS}}, or null for an unimplemented form. */
    static Insn.ThreadOp surface(boolean load, List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int rank = mods.contains("1d") ? 1 : mods.contains("2d") ? 2 : mods.contains("3d") ? 3 : 0;
        int size = mods.contains("b8") ? 1 : mods.contains("b16") ? 2 : mods.contains("b32") ? 4 : mods.contains("b64") ? 8 : 0;
        if (rank == 0 || size == 0 || !mods.contains("b") || mods.contains("clamp") || mods.contains("zero")
                || mods.contains("v2") || mods.contains("v4") || ops.size() != 2
                || !(ops.get(load ? 1 : 0) instanceof Operand.Address addr) || addr.parts().size() != 2) {
            return null;
        }
        Operand data = ops.get(load ? 0 : 1);
        if (data instanceof Operand.Vector v) {
            if (v.elements().size() != 1) {
                return null;
            }
            data = v.elements().get(0);
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        Src[] coords = coordinates(addr, rank, PtxType.S32, io);
        if (coords == null) {
            return null;
        }
        PtxType type = size == 8 ? PtxType.B64 : size == 4 ? PtxType.B32 : size == 2 ? PtxType.B16 : PtxType.B8;
        int dst = load ? io.dst(data) : -1;
        Src value = load ? null : io.src(data, type);
        return t -> {
            int[] at = new int[rank];
            for (int d = 0; d < rank; d++) {
                at[d] = (int) coords[d].get(t);
            }
            try {
                Texture tex = t.machine.launch.texture(handle.get(t));
                long a = tex.surfaceAddress(at, size);
                if (load) {
                    Values.write(t, dst, t.machine.launch.global().load(a, size));
                } else {
                    t.machine.launch.global().store(a, size, value.get(t));
                }
            } catch (IllegalArgumentException e) {
                throw new InterpreterError((load ? "suld" : "sust") + ": " + e.getMessage());
            }
        };
    }

    /** The first {@code rank} coordinates of {@code [handle, {x, y, ...}]}, or null when there are fewer. */
    private static Src[] coordinates(Operand.Address addr, int rank, PtxType type, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        Operand part = addr.parts().get(1);
        List<Operand> c = part instanceof Operand.Vector cv ? cv.elements() : List.of(part);
        if (c.size() < rank) {
            return null;
        }
        Src[] coords = new Src[rank];
        for (int d = 0; d < rank; d++) {
            coords[d] = io.src(c.get(d), type);
        }
        return coords;
    }
}
