package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;

/**
 * The forms of {@code mov} beyond a scalar copy and 64-bit packing: {@code mov.b128} (a copy, a zero-extended literal,
 * packing and unpacking of 2 x 64 or 4 x 32 bits, on the two slots of {@link Wide128}) and vector-to-vector copies
 * ({@code mov.v2.u32 {a, b}, {c, d}}).
 */
final class MovInstruction {
    private MovInstruction() {}

    /** How the instruction compiler converts operands. */
    interface Operands {
        Src src(Operand o, PtxType t) throws ProgramException, InstructionCompiler.Unsupported;

        /** The register a destination writes, or -1 for the sink. */
        int dst(Operand o) throws ProgramException, InstructionCompiler.Unsupported;

        /** The first slot of a {@code .b128} register, or -1 when {@code o} is not one. */
        int wide(Operand o);
    }

    /** The per-thread operation, or null when the form is not one of these. */
    static Insn.ThreadOp compile(PtxType t, Operand d, Operand s, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (t.sizeBytes() == 16) {
            return mov128(d, s, io);
        }
        if (d instanceof Operand.Vector dv && s instanceof Operand.Vector sv) {
            return dv.elements().size() == sv.elements().size() ? copy(dv, sv, t, io) : null;
        }
        return null;
    }

    private static Insn.ThreadOp mov128(Operand d, Operand s, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (d instanceof Operand.Vector v) {
            int[] regs = new int[v.elements().size()];
            for (int i = 0; i < regs.length; i++) {
                regs[i] = io.dst(v.elements().get(i));
            }
            int from = io.wide(s);
            return from < 0 ? null : Wide128.unpack(regs, 16 / regs.length, from);
        }
        int to = io.wide(d);
        if (to < 0) {
            return null;
        }
        if (s instanceof Operand.Vector v) {
            Src[] parts = new Src[v.elements().size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = io.src(v.elements().get(i), null);
            }
            return Wide128.pack(to, parts, 16 / parts.length);
        }
        if (s instanceof Expr.SymbolRef) {
            int from = io.wide(s);
            return from < 0 ? null : Wide128.copy(to, from);
        }
        return Wide128.copy(to, io.src(s, PtxType.B64));
    }

    /** Element by element, every source read before any element is written ({a, b}, {b, a} swaps). */
    private static Insn.ThreadOp copy(Operand.Vector d, Operand.Vector s, PtxType t, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int[] regs = new int[d.elements().size()];
        Src[] vals = new Src[regs.length];
        for (int i = 0; i < regs.length; i++) {
            regs[i] = io.dst(d.elements().get(i));
            vals[i] = io.src(s.elements().get(i), t);
        }
        return th -> {
            long[] x = new long[regs.length];
            for (int i = 0; i < regs.length; i++) {
                x[i] = vals[i].get(th);
            }
            for (int i = 0; i < regs.length; i++) {
                Values.write(th, regs[i], x[i]);
            }
        };
    }
}
