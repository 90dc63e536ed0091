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
 * not interpreted. Also {@code suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [h, {x,
 * ...}]} and {@code sust.b} likewise: raw bytes at x bytes into row (y, z) of the surface, layer last
 * ({@link Texture#surfaceAddress} with the mode); vectors of 8- or 16-bit elements and {@code .p} are not.
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
        int[] dst = destinations(dv, io);
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
            writeBack(t, dst, words);
        };
    }

    /** The registers of a four-element destination vector ({@code tex}, {@code tld4}); negative for a sink. */
    static int[] destinations(Operand.Vector dv, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int[] dst = new int[4];
        for (int k = 0; k < 4; k++) {
            dst[k] = io.dst(dv.elements().get(k));
        }
        return dst;
    }

    /** The four result words written to the destinations that are not sinks. */
    static void writeBack(ThreadState t, int[] dst, int[] words) {
        for (int k = 0; k < 4; k++) {
            if (dst[k] >= 0) {
                Values.write(t, dst[k], words[k] & 0xffffffffL);
            }
        }
    }
    /** The per-thread operation of {@code suld{.MODS}} or {@code sust{.MODS}}, or null for an unimplemented form. */
    static Insn.ThreadOp surface(boolean load, List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int size = mods.contains("b8") ? 1 : mods.contains("b16") ? 2 : mods.contains("b32") ? 4 : mods.contains("b64") ? 8 : 0;
        int vector = mods.contains("v4") ? 4 : mods.contains("v2") ? 2 : 1;
        if (size == 0 || !mods.contains("b") || ops.size() != 2 || vector > 1 && size < 4 || vector * size > 16
                || !(ops.get(load ? 1 : 0) instanceof Operand.Address addr) || addr.parts().size() != 2) {
            return null;
        }
        List<Operand> data = ops.get(load ? 0 : 1) instanceof Operand.Vector v ? v.elements() : List.of(ops.get(load ? 0 : 1));
        Src[] coords = surfaceCoordinates(mods, addr, io);
        if (data.size() != vector || coords == null) {
            return null;
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        PtxType type = size == 8 ? PtxType.B64 : size == 4 ? PtxType.B32 : size == 2 ? PtxType.B16 : PtxType.B8;
        int[] dst = new int[vector];
        Src[] values = new Src[vector];
        for (int k = 0; k < vector; k++) {
            if (load) {
                dst[k] = io.dst(data.get(k));
            } else {
                values[k] = io.src(data.get(k), type);
            }
        }
        Texture.OutOfBounds mode = outOfBounds(mods);
        return t -> {
            int[] at = new int[coords.length];
            for (int d = 0; d < at.length; d++) {
                at[d] = (int) coords[d].get(t);
            }
            try {
                Texture tex = t.machine.launch.texture(handle.get(t));
                long a = tex.surfaceAddress(at, size * vector, mode);
                for (int k = 0; k < vector; k++) {
                    if (load && dst[k] >= 0) {
                        Values.write(t, dst[k], a < 0 ? 0 : t.machine.launch.global().load(a + (long) k * size, size));
                    } else if (!load && a >= 0) {
                        t.machine.launch.global().store(a + (long) k * size, size, values[k].get(t));
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new InterpreterError((load ? "suld" : "sust") + ": " + e.getMessage());
            }
        };
    }

    /** A surface access's out-of-bounds mode: {@code .trap} (the default), {@code .clamp} or {@code .zero}. */
    static Texture.OutOfBounds outOfBounds(List<String> mods) {
        return mods.contains("clamp") ? Texture.OutOfBounds.CLAMP
                : mods.contains("zero") ? Texture.OutOfBounds.ZERO : Texture.OutOfBounds.TRAP;
    }

    /**
     * The coordinates of a surface access {@code [h, {...}]} in the order {@link Texture#surfaceAddress} takes
     * them: x (bytes), y, z, then the layer, which {@code a1d} and {@code a2d} name first; null for a geometry the
     * interpreter does not know or too few coordinates.
     */
    static Src[] surfaceCoordinates(List<String> mods, Operand.Address addr, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int[] order = mods.contains("1d") ? new int[] {0} : mods.contains("2d") ? new int[] {0, 1}
                : mods.contains("3d") ? new int[] {0, 1, 2} : mods.contains("a1d") ? new int[] {1, 0}
                : mods.contains("a2d") ? new int[] {1, 2, 0} : null;
        Operand part = addr.parts().get(1);
        List<Operand> c = part instanceof Operand.Vector cv ? cv.elements() : List.of(part);
        if (order == null || c.size() < order.length) {
            return null;
        }
        Src[] coords = new Src[order.length];
        for (int d = 0; d < order.length; d++) {
            coords[d] = io.src(c.get(order[d]), PtxType.S32);
        }
        return coords;
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
