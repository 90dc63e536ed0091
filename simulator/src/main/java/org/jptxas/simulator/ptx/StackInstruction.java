package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.write;

/**
 * {@code stacksave}, {@code alloca} and {@code stackrestore}: the thread's local-memory top ({@link ThreadState#localTop},
 * where a call's frame would start) is the stack pointer. {@code alloca} takes {@code size} bytes above it, aligned
 * to {@code immAlign} (8 when absent), and answers their local address; {@code stackrestore} puts the top back. The
 * interpreter's stack grows upward, the hardware's downward: only the bytes' addresses differ, never what they hold.
 */
final class StackInstruction {
    /** The alignment of {@code alloca} without {@code immAlign}. */
    private static final int DEFAULT_ALIGN = 8;

    private StackInstruction() {
    }

    static Insn compile(InstructionCompiler ic, String opcode) throws ProgramException, Unsupported {
        PtxType t = ic.type();
        long mask = t.sizeBytes() == 8 ? -1L : 0xffffffffL;
        return switch (opcode) {
            case "stacksave" -> {
                int d = ic.dst(ic.op(0));
                yield ic.simple(th -> write(th, d, th.localTop & mask));
            }
            case "stackrestore" -> {
                Src a = ic.src(ic.op(0), t);
                yield ic.simple(th -> th.localTop = (int) a.get(th));
            }
            case "alloca" -> {
                int d = ic.dst(ic.op(0));
                Src size = ic.src(ic.op(1), t);
                long align = DEFAULT_ALIGN;
                if (ic.ops.size() > 2) {
                    if (!(ic.op(2) instanceof Expr.IntLit lit)) {
                        throw ic.unsupported();
                    }
                    align = lit.value();
                }
                if (align <= 0 || align > 1 << 16 || Long.bitCount(align) != 1) {
                    throw ic.unsupported();
                }
                int a = (int) align;
                yield ic.simple(th -> {
                    int base = (th.localTop + a - 1) & -a;
                    th.localTop = (int) (base + (size.get(th) & mask));
                    write(th, d, base & mask);
                });
            }
            default -> throw ic.unsupported();
        };
    }
}
