package org.jptxas.simulator.ptx;

import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.SurfaceReduction;
import org.jptxas.simulator.exec.Texture;

/**
 * For the interpreter, with a bindless handle in a register: {@code tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [h,
 * {x, y}]} gathers one channel of the four texels a linear lookup weighs ({@link Texture#gather});
 * {@code txq.{width,height,depth}.b32 d, [h]} and {@code suq} likewise read the header's sizes
 * ({@link Texture#dimensions}); {@code sured.b.{add,min,max,and,or}.{1d,2d,3d}.{u32,s32,b32,u64,s64}{.trap,.clamp,
 * .zero} [h, {x, ...}], v} reduces the 32- or 64-bit element at x bytes into row (y, z) ({@link Texture#surfaceAddress},
 * {@link SurfaceReduction}). Other forms are not interpreted.
 */
final class TextureQueryInstruction {
    private TextureQueryInstruction() {}

    /** The per-thread operation of {@code tld4{.MODS}}, or null for a form the interpreter does not implement. */
    static Insn.ThreadOp gather(List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int channel = List.of("r", "g", "b", "a").indexOf(mods.isEmpty() ? "" : mods.get(0));
        if (channel < 0 || !mods.contains("2d") || !mods.contains("v4") || ops.size() != 2
                || !(ops.get(0) instanceof Operand.Vector dv) || dv.elements().size() != 4
                || !(ops.get(1) instanceof Operand.Address addr) || addr.parts().size() != 2
                || !(addr.parts().get(1) instanceof Operand.Vector cv) || cv.elements().size() < 2
                || !mods.get(mods.size() - 1).equals("f32")
                || !Set.of("f32", "s32", "u32").contains(mods.get(mods.size() - 2))) {
            return null;
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        Src x = io.src(cv.elements().get(0), PtxType.F32);
        Src y = io.src(cv.elements().get(1), PtxType.F32);
        int[] dst = TextureInstruction.destinations(dv, io);
        return t -> {
            int[] words;
            try {
                float[] at = {Float.intBitsToFloat((int) x.get(t)), Float.intBitsToFloat((int) y.get(t))};
                words = t.machine.launch.texture(handle.get(t)).gather(t.machine.launch.global(), at, channel);
            } catch (IllegalArgumentException e) {
                throw new InterpreterError("tld4: " + e.getMessage());
            }
            TextureInstruction.writeBack(t, dst, words);
        };
    }

    /** The per-thread operation of {@code txq{.MODS}} or {@code suq{.MODS}}, or null for an unimplemented form. */
    static Insn.ThreadOp query(String opcode, List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int which = mods.contains("width") ? 0 : mods.contains("height") ? 1 : mods.contains("depth") ? 2 : -1;
        if (which < 0 || mods.contains("level") || !mods.contains("b32") || ops.size() != 2
                || !(ops.get(1) instanceof Operand.Address addr) || addr.parts().size() != 1) {
            return null;
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        int dst = io.dst(ops.get(0));
        return t -> {
            try {
                Values.write(t, dst, t.machine.launch.texture(handle.get(t)).dimensions()[which] & 0xffffffffL);
            } catch (IllegalArgumentException e) {
                throw new InterpreterError(opcode + ": " + e.getMessage());
            }
        };
    }

    /** The per-thread operation of {@code sured{.MODS}}, or null for an unimplemented form. */
    static Insn.ThreadOp reduction(List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        SurfaceReduction op = null;
        for (String m : mods) {
            op = op != null ? op : SurfaceReduction.named(m);
        }
        boolean signed = mods.contains("s32") || mods.contains("s64");
        int size = mods.contains("u64") || mods.contains("s64") || mods.contains("b64") ? 8
                : signed || mods.contains("u32") || mods.contains("b32") ? 4 : 0;
        if (op == null || size == 0 || !mods.contains("b") || ops.size() != 2
                || !(ops.get(0) instanceof Operand.Address addr) || addr.parts().size() != 2) {
            return null;
        }
        Src[] coords = TextureInstruction.surfaceCoordinates(mods, addr, io);
        if (coords == null) {
            return null;
        }
        Src handle = io.src(addr.parts().get(0), PtxType.U64);
        Src value = io.src(ops.get(1), size == 8 ? PtxType.B64 : PtxType.B32);
        Texture.OutOfBounds mode = TextureInstruction.outOfBounds(mods);
        SurfaceReduction operation = op;
        return t -> {
            int[] at = new int[coords.length];
            for (int d = 0; d < at.length; d++) {
                at[d] = (int) coords[d].get(t);
            }
            try {
                long a = t.machine.launch.texture(handle.get(t)).surfaceAddress(at, size, mode);
                if (a >= 0) {
                    long old = t.machine.launch.global().load(a, size);
                    t.machine.launch.global().store(a, size, operation.apply(old, value.get(t), signed, size));
                }
            } catch (IllegalArgumentException e) {
                throw new InterpreterError("sured: " + e.getMessage());
            }
        };
    }
}
