package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.write;

/**
 * The sm_90 packed 16-bit integer forms {@code add}, {@code sub}, {@code min}, {@code max} {@code .s16x2/.u16x2} (each
 * half on its own, sums wrapping), and {@code .relu} min/max ({@code .s16x2}, {@code .s32}: a negative result is 0).
 */
final class PackedIntegerInstruction {
    private PackedIntegerInstruction() {
    }

    /** Whether {@code ic}'s instruction is one of these forms. */
    static boolean applies(InstructionCompiler ic) {
        String o = ic.ins.opcode();
        boolean pair = ic.has("s16x2") || ic.has("u16x2");
        return pair && (o.equals("add") || o.equals("sub") || o.equals("min") || o.equals("max"))
                || ic.has("relu") && ic.has("s32") && (o.equals("min") || o.equals("max"));
    }

    static Insn compile(InstructionCompiler ic) throws ProgramException, Unsupported {
        String o = ic.ins.opcode();
        boolean relu = ic.has("relu");
        boolean signed = !ic.has("u16x2");
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32);
        Src b = ic.src(ic.op(2), PtxType.B32);
        if (ic.has("s32")) {
            boolean min = o.equals("min");
            return ic.simple(th -> {
                int x = (int) a.get(th), y = (int) b.get(th);
                int r = min ? Math.min(x, y) : Math.max(x, y);
                write(th, d, Math.max(r, 0) & 0xffffffffL);
            });
        }
        return ic.simple(th -> {
            int x = (int) a.get(th), y = (int) b.get(th);
            int r = 0;
            for (int lane = 0; lane < 2; lane++) {
                int xs = x >>> 16 * lane & 0xffff, ys = y >>> 16 * lane & 0xffff;
                if (signed) {
                    xs = (short) xs;
                    ys = (short) ys;
                }
                int v = switch (o) {
                    case "add" -> xs + ys;
                    case "sub" -> xs - ys;
                    case "min" -> Math.min(xs, ys);
                    default -> Math.max(xs, ys);
                };
                if (relu && v < 0) {
                    v = 0;
                }
                r |= (v & 0xffff) << 16 * lane;
            }
            write(th, d, r & 0xffffffffL);
        });
    }
}
