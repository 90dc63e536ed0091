package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import java.util.List;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.numeric.AtomicFloatAdd;
import org.jptxas.simulator.numeric.AtomicLanes;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.f32;
import static org.jptxas.simulator.ptx.Values.f64;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

/** Memory instructions: ld, st, atom and red, cvta and isspacep. */
final class MemoryCompiler {
    private final InstructionCompiler ic;

    MemoryCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    Insn cvta() throws ProgramException, Unsupported {
        boolean to = ic.has("to");
        AddressSpace s = ic.space();
        if (s == AddressSpace.GENERIC) {
            throw ic.unsupported();
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.U64);
        long base = Machine.windowStart(s);
        boolean narrow = ic.types.contains(PtxType.U32);
        if (to) {
            return ic.simple(th -> {
                long v = a.get(th);
                write(th, d, base == 0 ? v : v - base);
            });
        }
        return ic.simple(th -> {
            long v = a.get(th);
            if (narrow) {
                v &= 0xffffffffL;
            }
            write(th, d, base == 0 ? v : v + base);
        });
    }

    Insn load() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        AddressSpace s = ic.space();
        int n = ic.vectorLength();
        int size = t.sizeBytes();
        Src addr = ic.memory(ic.op(1));
        boolean signed = isSigned(t);
        if (n == 1) {
            int d = ic.dst(ic.op(0));
            if (size == 16) {
                return ic.simple(Wide128.load(s, addr, ic.wide(ic.op(0))));
            }
            return ic.simple(th -> {
                long v = th.machine.load(th, s, addr.get(th), size);
                write(th, d, signed ? Values.sext(v, size) : v);
            });
        }
        if (!(ic.op(0) instanceof Operand.Vector v) || v.elements().size() != n) {
            throw ic.unsupported();
        }
        int[] regs = new int[n];
        for (int i = 0; i < n; i++) {
            regs[i] = ic.dst(v.elements().get(i));
        }
        return ic.simple(th -> {
            long a = addr.get(th);
            if ((a & ((long) n * size - 1)) != 0) {
                throw new org.jptxas.simulator.memory.MemoryAccessException(s, a, n * size, "misaligned vector access");
            }
            for (int i = 0; i < n; i++) {
                long x = th.machine.load(th, s, a + (long) i * size, size);
                write(th, regs[i], signed ? Values.sext(x, size) : x);
            }
        });
    }

    Insn store() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        AddressSpace s = ic.space();
        int n = ic.vectorLength();
        int size = t.sizeBytes();
        Src addr = ic.memory(ic.op(0));
        if (n == 1) {
            if (size == 16) {
                return ic.simple(ic.op(1) instanceof Expr.SymbolRef ? Wide128.store(s, addr, ic.wide(ic.op(1)))
                        : Wide128.store(s, addr, ic.src(ic.op(1), PtxType.B64)));
            }
            Src v = ic.src(ic.op(1), t);
            return ic.simple(th -> th.machine.store(th, s, addr.get(th), size, v.get(th)));
        }
        if (!(ic.op(1) instanceof Operand.Vector vec) || vec.elements().size() != n) {
            throw ic.unsupported();
        }
        Src[] vals = new Src[n];
        for (int i = 0; i < n; i++) {
            vals[i] = ic.src(vec.elements().get(i), t);
        }
        return ic.simple(th -> {
            long a = addr.get(th);
            if ((a & ((long) n * size - 1)) != 0) {
                throw new org.jptxas.simulator.memory.MemoryAccessException(s, a, n * size, "misaligned vector access");
            }
            for (int i = 0; i < n; i++) {
                th.machine.store(th, s, a + (long) i * size, size, vals[i].get(th));
            }
        });
    }

    Insn atom() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        AddressSpace s = ic.space();
        boolean red = ic.ins.opcode().equals("red");
        String op = null;
        for (String m : ic.mods) {
            switch (m) {
                case "add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec" -> op = m;
                default -> { }
            }
        }
        boolean pair = t == PtxType.F16X2 || t == PtxType.BF16X2;
        if (op != null && (ic.vectorLength() > 1 || pair && !op.equals("add"))) {
            return vectorAtom(t, s, red, op);
        }
        if (t == PtxType.B128 && !red && ("exch".equals(op) || "cas".equals(op))) {
            boolean cas = op.equals("cas");
            Operand value = ic.op(cas ? 3 : 2);
            // a literal value is zero-extended to 128 bits, as for st.b128
            Src lo = value instanceof Expr.SymbolRef ? Src.reg(ic.wide(value)) : ic.src(value, PtxType.B64);
            Src hi = value instanceof Expr.SymbolRef ? Src.reg(ic.wide(value) + 1) : Src.imm(0);
            return ic.simple(Wide128.atomic(s, ic.memory(ic.op(1)), ic.wide(ic.op(0)), cas ? ic.wide(ic.op(2)) : -1,
                    lo, hi));
        }
        if (op == null || t == PtxType.B128) {
            throw ic.unsupported();
        }
        int base = red ? 0 : 1;
        int d = red ? -1 : ic.dst(ic.op(0));
        Src addr = ic.memory(ic.op(base));
        Src b = ic.src(ic.op(base + 1), t);
        Src c = op.equals("cas") ? ic.src(ic.op(base + 2), t) : null;
        int size = t.sizeBytes();
        String o = op;
        return ic.simple(th -> {
            long a = addr.get(th);
            long old = th.machine.load(th, s, a, size);
            long x = b.get(th);
            long v = switch (o) {
                case "add" -> atomicAdd(old, x, t);
                case "min" -> isFloat(t) ? bitsOf(Math.min(asDouble(old, t), asDouble(x, t)), t)
                        : isSigned(t) ? Math.min(ext(old, t), ext(x, t)) : (Long.compareUnsigned(ext(old, t), ext(x, t)) <= 0 ? old : x);
                case "max" -> isFloat(t) ? bitsOf(Math.max(asDouble(old, t), asDouble(x, t)), t)
                        : isSigned(t) ? Math.max(ext(old, t), ext(x, t)) : (Long.compareUnsigned(ext(old, t), ext(x, t)) >= 0 ? old : x);
                case "and" -> old & x;
                case "or" -> old | x;
                case "xor" -> old ^ x;
                case "exch" -> x;
                case "cas" -> (old & mask(size)) == (x & mask(size)) ? c.get(th) : old;
                case "inc" -> Long.compareUnsigned(old & mask(size), x & mask(size)) >= 0 ? 0 : old + 1;
                case "dec" -> (old & mask(size)) == 0 || Long.compareUnsigned(old & mask(size), x & mask(size)) > 0 ? x : old - 1;
                default -> throw new InterpreterError("unsupported atom." + o);
            };
            th.machine.store(th, s, a, size, v);
            write(th, d, isSigned(t) ? Values.sext(old, size) : old);
        });
    }

    /**
     * Vector atom/red (f32 .v2/.v4 add; f16/bf16 .v2/.v4/.v8 and f16x2/bf16x2 .v2/.v4 add, min, max) and f16x2/bf16x2
     * min/max: the vector's 32-bit words, each combined on its lanes ({@link AtomicLanes}); elements narrower than a
     * word pack two to a word, the first in the low half.
     */
    private Insn vectorAtom(PtxType t, AddressSpace s, boolean red, String op) throws ProgramException, Unsupported {
        AtomicLanes.Op o = switch (op) {
            case "add" -> AtomicLanes.Op.ADD;
            case "min" -> AtomicLanes.Op.MIN;
            case "max" -> AtomicLanes.Op.MAX;
            default -> null;
        };
        AtomicLanes.Lane lane = switch (t) {
            case F32 -> AtomicLanes.Lane.F32;
            case F16, F16X2 -> AtomicLanes.Lane.F16;
            case BF16, BF16X2 -> AtomicLanes.Lane.BF16;
            default -> null;
        };
        int n = ic.vectorLength();
        int size = t.sizeBytes();
        int bytes = n * size;
        if (o == null || lane == null || lane == AtomicLanes.Lane.F32 && o != AtomicLanes.Op.ADD || bytes < 4
                || bytes > 16) {
            throw ic.unsupported();
        }
        int base = red ? 0 : 1;
        Src addr = ic.memory(ic.op(base));
        List<Operand> vals = elements(ic.op(base + 1), n);
        List<Operand> dsts = red ? null : elements(ic.op(0), n);
        Src[] in = new Src[n];
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            in[k] = ic.src(vals.get(k), t);
            out[k] = red || dsts.get(k) instanceof Operand.Sink ? -1 : ic.dst(dsts.get(k));
        }
        int words = bytes / 4;
        int per = 4 / size; // elements in a word (1 or 2)
        return ic.simple(th -> {
            long a = addr.get(th);
            if ((a & (bytes - 1)) != 0) {
                throw new MemoryAccessException(s, a, bytes, "misaligned vector access");
            }
            for (int w = 0; w < words; w++) {
                int value = 0;
                for (int e = 0; e < per; e++) {
                    value |= (int) (in[w * per + e].get(th) & (per == 2 ? 0xffff : 0xffffffffL)) << (16 * e);
                }
                long at = a + 4L * w;
                int old = (int) th.machine.load(th, s, at, 4);
                th.machine.store(th, s, at, 4, Integer.toUnsignedLong(AtomicLanes.combine(o, lane, old, value)));
                for (int e = 0; e < per; e++) {
                    write(th, out[w * per + e], per == 2 ? old >>> (16 * e) & 0xffff : Integer.toUnsignedLong(old));
                }
            }
        });
    }

    private List<Operand> elements(Operand o, int n) throws Unsupported {
        if (n == 1) {
            return List.of(o);
        }
        if (!(o instanceof Operand.Vector v) || v.elements().size() != n) {
            throw ic.unsupported();
        }
        return v.elements();
    }

    private static long atomicAdd(long old, long x, PtxType t) {
        return switch (t) {
            case F32 -> AtomicFloatAdd.f32(old, x);
            case F64 -> AtomicFloatAdd.f64(old, x);
            case F16, BF16 -> Values.toHalf(Values.half(old, t == PtxType.BF16) + Values.half(x, t == PtxType.BF16),
                    t == PtxType.BF16);
            // each lane on its own, rounded to nearest (no carry between the lanes)
            case F16X2, BF16X2 -> atomicAdd(old, x, t == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16) & 0xffff
                    | (atomicAdd(old >>> 16, x >>> 16, t == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16) & 0xffff) << 16;
            default -> old + x;
        };
    }

    private static double asDouble(long v, PtxType t) {
        return t == PtxType.F32 ? f32(v) : f64(v);
    }

    private static long bitsOf(double v, PtxType t) {
        return t == PtxType.F32 ? Float.floatToRawIntBits((float) v) & 0xffffffffL : Double.doubleToRawLongBits(v);
    }

    Insn isspacep() throws ProgramException, Unsupported {
        AddressSpace s = ic.space();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.U64);
        return ic.simple(th -> {
            long x = a.get(th);
            AddressSpace w = Machine.windowOf(x);
            boolean r = s == AddressSpace.GLOBAL ? w == AddressSpace.GLOBAL && th.machine.launch.global().find(x, 1).isPresent()
                    : w == s;
            write(th, d, r ? 1 : 0);
        });
    }
}
