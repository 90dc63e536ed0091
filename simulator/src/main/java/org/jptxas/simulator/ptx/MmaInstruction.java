package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.QuadPairMma;
import org.jptxas.simulator.exec.WarpMma;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;

/**
 * {@code mma.sync.aligned.SHAPE.row.col{.satfinite}.DTYPE.ATYPE.BTYPE.CTYPE d, a, b, c} for the interpreter: the
 * shapes and types of {@link #spec}; the whole warp executes it (a lane that does not is undefined: an error), and
 * {@link WarpMma} computes D with the numerics written down there.
 */
final class MmaInstruction {
    private MmaInstruction() {}

    /** How the instruction compiler converts operands. */
    interface Operands {
        Src src(Operand o, PtxType t) throws ProgramException, InstructionCompiler.Unsupported;

        int dst(Operand o) throws ProgramException, InstructionCompiler.Unsupported;
    }

    /**
     * The multiply a name describes, or null when the interpreter does not implement it: m16n8k16 and m16n8k8 with
     * f16 (f16 or f32 accumulation) or bf16 (f32) inputs, m16n8k8/k4 tf32, m16n8k32/k16 s8/u8 and m16n8k64/k32,
     * m8n8k32 s4/u4 (s32), m8n8k4 f64, and
     * Volta's quad-pair m8n8k4 with f16 inputs (f16 or f32 accumulation; {@link QuadPairMma}).
     */
    static Spec spec(List<String> mods) {
        if (!mods.contains("sync") || !mods.contains("aligned") || !mods.contains("row") || !mods.contains("col")) {
            return null;
        }
        String shape = null;
        List<Type> types = new java.util.ArrayList<>();
        boolean sat = false;
        String bitOp = null;
        boolean popc = false;
        for (String m : mods) {
            switch (m) {
                case "sync", "aligned", "row", "col" -> { }
                case "and", "xor" -> bitOp = m;
                case "popc" -> popc = true;
                case "b1" -> types.add(Type.B1);
                case "satfinite" -> sat = true;
                case "m16n8k16", "m16n8k8", "m16n8k4", "m16n8k32", "m8n8k4", "m8n8k16", "m16n8k64", "m8n8k32",
                        "m16n8k256", "m16n8k128", "m8n8k128" -> shape = m;
                case "f16" -> types.add(Type.F16);
                case "bf16" -> types.add(Type.BF16);
                case "tf32" -> types.add(Type.TF32);
                case "f32" -> types.add(Type.F32);
                case "s8" -> types.add(Type.S8);
                case "u8" -> types.add(Type.U8);
                case "s4" -> types.add(Type.S4);
                case "u4" -> types.add(Type.U4);
                case "s32" -> types.add(Type.S32);
                case "f64" -> types.add(Type.F64);
                case "e4m3" -> types.add(Type.E4M3);
                case "e5m2" -> types.add(Type.E5M2);
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || types.size() != 4) {
            return null;
        }
        Type d = types.get(0), a = types.get(1), b = types.get(2), c = types.get(3);
        boolean fp8 = (a == Type.E4M3 || a == Type.E5M2) && (b == Type.E4M3 || b == Type.E5M2);
        if (fp8) { // m16n8k32 or m16n8k16, A and B each e4m3 or e5m2, f32 or f16 accumulation
            int k = shape.equals("m16n8k32") ? 32 : shape.equals("m16n8k16") ? 16 : 0;
            boolean ok = k > 0 && d == c && (d == Type.F32 || d == Type.F16) && !sat && !popc
                    && bitOp == null;
            return ok ? new Spec(16, 8, k, a, c, d, false, false, b) : null;
        }
        // integer A and B may differ in signedness (s8 with u8, s4 with u4), not in width
        boolean mixedSign = a != b && a.integer() && b.integer() && a != Type.B1 && b != Type.B1
                && a.bits() == b.bits();
        if (a != b && !mixedSign) {
            return null;
        }
        int m = shape.startsWith("m8n8") ? 8 : 16, n = 8;
        int k = Integer.parseInt(shape.substring(shape.indexOf('k') + 1));
        boolean ok = switch (a) {
            case F16 -> d == c && (d == Type.F16 || d == Type.F32) && (m == 16 ? k == 16 || k == 8 : k == 4);
            case BF16 -> (k == 16 || k == 8) && m == 16 && d == Type.F32 && c == Type.F32;
            case TF32 -> (k == 8 || k == 4) && m == 16 && d == Type.F32 && c == Type.F32;
            case S8, U8 -> (m == 16 && (k == 32 || k == 16) || m == 8 && k == 16) && d == Type.S32 && c == Type.S32;
            case S4, U4 -> (m == 16 && (k == 64 || k == 32) || m == 8 && k == 32) && d == Type.S32 && c == Type.S32;
            case B1 -> (m == 16 && (k == 256 || k == 128) || m == 8 && k == 128) && d == Type.S32 && c == Type.S32
                    && popc && bitOp != null && !sat;
            case F64 -> (m == 8 && k == 4 || m == 16 && (k == 4 || k == 8 || k == 16)) && d == Type.F64
                    && c == Type.F64;
            default -> false;
        };
        if (a != Type.B1 && (popc || bitOp != null)) {
            return null;
        }
        return ok && (!sat || a.integer()) ? new Spec(m, n, k, a, c, d, sat, "xor".equals(bitOp), b) : null;
    }

    /**
     * The multiply a sparse name ({@code mma.sp[::ordered_metadata]}) describes, of the full k, or null: m16n8k16/k32
     * f16 and bf16, m16n8k8/k16 tf32, m16n8k32/k64 s8/u8, m16n8k64/k128 s4/u4, m16n8k64 e4m3/e5m2 (f32).
     */
    static Spec sparseSpec(List<String> mods) {
        String shape = mods.stream().filter(m -> m.matches("m16n8k\\d+")).findFirst().orElse(null);
        if (shape == null || mods.stream().filter(m -> m.equals("sp") || m.equals("sp::ordered_metadata")).count() != 1) {
            return null;
        }
        int k = Integer.parseInt(shape.substring(6));
        String in = mods.contains("tf32") ? "m16n8k8" : mods.contains("f16") || mods.contains("bf16") ? "m16n8k16"
                : mods.contains("s4") || mods.contains("u4") ? "m16n8k64" : "m16n8k32";
        // the types' validity is the dense shape's of the same types
        List<String> dense = mods.stream().filter(m -> !m.startsWith("sp")).map(m -> m.equals(shape) ? in : m).toList();
        Spec d = spec(dense);
        if (d == null || d.m() != 16) {
            return null;
        }
        int bits = d.ab().bits();
        boolean ok = switch (bits) {
            case 16 -> k == 16 || k == 32;
            case 32 -> k == 8 || k == 16;
            case 8 -> k == 32 || k == 64 && (d.ab().integer() || d.d() == Type.F32);
            case 4 -> k == 64 || k == 128;
            default -> false;
        };
        boolean fp8 = d.ab() == Type.E4M3 || d.ab() == Type.E5M2;
        return ok && (!fp8 || k == 64) ? new Spec(16, 8, k, d.ab(), d.c(), d.d(), d.satfinite(), false, d.b()) : null;
    }

    /** The warp operation of {@code d, a, b, c, e, selector} for a sparse multiply ({@link #sparseSpec}). */
    static Insn.WarpOp compileSparse(Spec s, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 6 || !(ops.get(5) instanceof org.jptxas.frontend.ptx.ast.Expr.IntLit selector)) {
            throw new InstructionCompiler.Unsupported("mma.sp needs metadata and a literal selector");
        }
        int[] d = dsts(ops.get(0), s.dRegs(), s.d(), io);
        Src[] a = srcs(ops.get(1), s.aRegs() / 2, s.ab(), io);
        Src[] b = srcs(ops.get(2), s.bRegs(), s.ab(), io);
        Src[] c = srcs(ops.get(3), s.cRegs(), s.c(), io);
        Src e = io.src(ops.get(4), PtxType.B32);
        int sel = (int) selector.value();
        return (lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("mma.sp needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][];
            int[] meta = new int[32];
            for (int l = 0; l < 32; l++) {
                ra[l] = words(a, lanes[l], false);
                rb[l] = words(b, lanes[l], false);
                rc[l] = words(c, lanes[l], false);
                meta[l] = (int) e.get(lanes[l]);
            }
            int[][] rd = WarpMma.multiplySparse(s, ra, rb, rc, meta, sel);
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    Values.write(lanes[l], d[i], rd[l][i] & 0xffffffffL);
                }
            }
        };
    }

    /** The warp operation of {@code d, a, b, c}. */
    static Insn.WarpOp compile(Spec s, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 4) {
            throw new InstructionCompiler.Unsupported("mma with " + ops.size() + " operands");
        }
        if (quadPair(s)) {
            return quadPair(QuadPairMma.Form.rowCol(s.c() == Type.F32), ops, io);
        }
        int[] d = dsts(ops.get(0), s.dRegs(), s.d(), io);
        Src[] a = srcs(ops.get(1), s.aRegs(), s.ab(), io);
        Src[] b = srcs(ops.get(2), s.bRegs(), s.ab(), io);
        Src[] c = srcs(ops.get(3), s.cRegs(), s.c(), io);
        boolean wide = s.d() == Type.F64;
        return (lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("mma.sync needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][];
            for (int l = 0; l < 32; l++) {
                ra[l] = words(a, lanes[l], s.ab() == Type.F64);
                rb[l] = words(b, lanes[l], s.ab() == Type.F64);
                rc[l] = words(c, lanes[l], s.c() == Type.F64);
            }
            int[][] rd = WarpMma.multiply(s, ra, rb, rc);
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    long v = wide ? rd[l][2 * i] & 0xffffffffL | (long) rd[l][2 * i + 1] << 32 : rd[l][i] & 0xffffffffL;
                    Values.write(lanes[l], d[i], v);
                }
            }
        };
    }

    /** Volta's quad-pair shape: m8n8k4 with f16 inputs. */
    private static boolean quadPair(Spec s) {
        return s.m() == 8 && s.k() == 4 && s.ab() == Type.F16;
    }

    /**
     * m8n8k4 with f16 inputs, A and B in either layout: A and B 2 registers, C and D 4 (f16 pairs) or 8 (f32),
     * {@link QuadPairMma}.
     */
    static Insn.WarpOp quadPair(QuadPairMma.Form f, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 4) {
            throw new InstructionCompiler.Unsupported("mma with " + ops.size() + " operands");
        }
        int[] d = dsts(ops.get(0), f.dRegs(), Type.F32, io);
        Src[] a = srcs(ops.get(1), 2, Type.F16, io), b = srcs(ops.get(2), 2, Type.F16, io);
        Src[] c = srcs(ops.get(3), f.cRegs(), Type.F32, io);
        return (lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("mma.sync needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][];
            for (int l = 0; l < 32; l++) {
                ra[l] = words(a, lanes[l], false);
                rb[l] = words(b, lanes[l], false);
                rc[l] = words(c, lanes[l], false);
            }
            int[][] rd = QuadPairMma.multiply(f, ra, rb, rc);
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    Values.write(lanes[l], d[i], rd[l][i] & 0xffffffffL);
                }
            }
        };
    }

    /** A fragment operand's element list: {@code {r0, r1, ...}}, or a single register for one element. */
    private static List<Operand> elements(Operand o) {
        return o instanceof Operand.Vector v ? v.elements() : List.of(o);
    }

    /** Registers per PTX element: 64-bit elements are one PTX register holding two words. */
    private static int count(int words, Type t) {
        return t == Type.F64 ? words / 2 : words;
    }

    private static int[] dsts(Operand o, int words, Type t, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> e = elements(o);
        if (e.size() != count(words, t)) {
            throw new InstructionCompiler.Unsupported("mma fragment of " + e.size() + " registers");
        }
        int[] r = new int[e.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = io.dst(e.get(i));
        }
        return r;
    }

    private static Src[] srcs(Operand o, int words, Type t, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> e = elements(o);
        if (e.size() != count(words, t)) {
            throw new InstructionCompiler.Unsupported("mma fragment of " + e.size() + " registers");
        }
        Src[] r = new Src[e.size()];
        PtxType pt = t == Type.F64 ? PtxType.B64 : PtxType.B32;
        for (int i = 0; i < r.length; i++) {
            r[i] = io.src(e.get(i), pt);
        }
        return r;
    }

    private static int[] words(Src[] regs, ThreadState th, boolean wide) {
        int[] w = new int[wide ? 2 * regs.length : regs.length];
        for (int i = 0; i < regs.length; i++) {
            long v = regs[i].get(th);
            if (wide) {
                w[2 * i] = (int) v;
                w[2 * i + 1] = (int) (v >>> 32);
            } else {
                w[i] = (int) v;
            }
        }
        return w;
    }
}
