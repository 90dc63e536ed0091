package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.isa.WmmaForm;
import org.jptxas.frontend.ptx.isa.WmmaTiles;
import org.jptxas.simulator.exec.WarpMma;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * The {@link WmmaForm}s for the interpreter, in the fragment layout {@link WmmaForm} describes (the one jptxas's
 * lowering and ptxas use). Each half is one {@link WarpMma} multiply (one rounding; the compilers' chains of
 * shorter HMMA round once per step, within the tolerance the suite's references allow).
 */
final class WmmaInstruction {
    private WmmaInstruction() {}

    /** The multiply of one 16 x 8 half, or null when the interpreter does not implement the form. */
    static Spec spec(List<String> mods) {
        WmmaForm form = WmmaForm.of(mods);
        if (form == null) {
            return null;
        }
        Type acc = form.f32Accumulator() ? Type.F32 : Type.F16;
        return new Spec(16, 8, form.k(), form.tf32Inputs() ? Type.TF32 : Type.F16, acc, acc, false);
    }

    /**
     * The warp operation of {@code d, a, b, c} for halves of {@code half} (the multiply's accumulator type). A form
     * with f16 C and f32 accumulation widens C first (exactly); one with f16 D and f32 accumulation rounds the f32
     * results to f16 pairs last, to nearest even: the f32 sum is rounded twice, as the compilers' HMMA.F32 and
     * F2FP.PACK_AB do.
     */
    static Insn.WarpOp compile(WmmaForm form, Spec half, List<Operand> ops, MmaInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 4) {
            throw new InstructionCompiler.Unsupported("wmma.mma with " + ops.size() + " operands");
        }
        boolean f16 = half.ab() == Type.F16;
        int acc = half.cRegs();
        boolean widen = form.f16C() && form.f32Accumulator(), pack = form.f16D() && form.f32Accumulator();
        int[] d = dsts(ops.get(0), form.dRegisters(), io);
        Src[] a = srcs(ops.get(1), f16 ? 8 : 4, io), b = srcs(ops.get(2), f16 ? 8 : 4, io);
        Src[] c = srcs(ops.get(3), form.cRegisters(), io);
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
                        rc[h][l][i] = widen ? widened(c[acc / 2 * h + i / 2].get(lanes[l]), i % 2)
                                : (int) c[acc * h + i].get(lanes[l]);
                    }
                }
            }
            int[][][] rd = {WarpMma.multiply(half, ra, rb[0], rc[0]), WarpMma.multiply(half, ra, rb[1], rc[1])};
            int per = pack ? acc / 2 : acc;
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    int[] h = rd[i / per][l];
                    long v = pack ? packed(h[2 * (i % per)], h[2 * (i % per) + 1]) : h[i % per] & 0xffffffffL;
                    Values.write(lanes[l], d[i], v);
                }
            }
        };
    }

    /**
     * The warp operation of a {@link WmmaTiles} form: each multiply ({@link MmaInstruction#spec} of its name) on the
     * fragment registers it reads, its D replacing its part of the accumulator (64-bit registers as two words).
     */
    static Insn.WarpOp compile(WmmaTiles t, List<Operand> ops, MmaInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (ops.size() != 4) {
            throw new InstructionCompiler.Unsupported("wmma.mma with " + ops.size() + " operands");
        }
        List<Spec> specs = new java.util.ArrayList<>();
        for (WmmaTiles.Tile tile : t.tiles()) {
            Spec s = MmaInstruction.spec(tile.mma());
            if (s == null) {
                throw new InstructionCompiler.Unsupported("wmma.mma as " + tile.mma());
            }
            specs.add(s);
        }
        PtxType type = t.wide() ? PtxType.B64 : PtxType.B32;
        int per = t.wide() ? 2 : 1;
        int[] d = dsts(ops.get(0), t.dRegisters(), io);
        Src[] a = srcs(ops.get(1), t.aRegisters(), io, type), b = srcs(ops.get(2), t.bRegisters(), io, type);
        Src[] c = srcs(ops.get(3), t.cRegisters(), io, type);
        return (lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("wmma.mma.sync needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[][] wa = new int[32][], wb = new int[32][], acc = new int[32][];
            for (int l = 0; l < 32; l++) {
                wa[l] = words(a, lanes[l], per);
                wb[l] = words(b, lanes[l], per);
                acc[l] = words(c, lanes[l], per);
                if (t.widenC()) { // f16 C widened to the f32 accumulator (exactly), low half first
                    int[] w = new int[2 * acc[l].length];
                    for (int i = 0; i < w.length; i++) {
                        w[i] = widened(acc[l][i / 2] & 0xffffffffL, i % 2);
                    }
                    acc[l] = w;
                }
            }
            for (int i = 0; i < specs.size(); i++) {
                WmmaTiles.Tile tile = t.tiles().get(i);
                int[][] ta = new int[32][], tb = new int[32][], tc = new int[32][];
                for (int l = 0; l < 32; l++) {
                    ta[l] = pick(tile.swapped() ? wb[l] : wa[l], tile.a(), per);
                    tb[l] = pick(tile.swapped() ? wa[l] : wb[l], tile.b(), per);
                    tc[l] = pick(acc[l], tile.acc(), per);
                }
                int[][] td = WarpMma.multiply(specs.get(i), ta, tb, tc);
                for (int l = 0; l < 32; l++) {
                    for (int w = 0; w < td[l].length; w++) {
                        acc[l][per * tile.acc().get(w / per) + w % per] = td[l][w];
                    }
                }
            }
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < d.length; i++) {
                    // f32 results rounded to f16 pairs last, to nearest even
                    long v = t.packD() ? packed(acc[l][2 * i], acc[l][2 * i + 1])
                            : per == 2 ? acc[l][2 * i] & 0xffffffffL | (long) acc[l][2 * i + 1] << 32
                            : acc[l][i] & 0xffffffffL;
                    Values.write(lanes[l], d[i], v);
                }
            }
        };
    }

    /** A lane's registers as 32-bit words ({@code per} each, the low word first). */
    private static int[] words(Src[] regs, ThreadState th, int per) {
        int[] w = new int[regs.length * per];
        for (int i = 0; i < regs.length; i++) {
            long v = regs[i].get(th);
            for (int k = 0; k < per; k++) {
                w[per * i + k] = (int) (v >>> 32 * k);
            }
        }
        return w;
    }

    /** The words of registers {@code regs}. */
    private static int[] pick(int[] words, List<Integer> regs, int per) {
        int[] w = new int[regs.size() * per];
        for (int i = 0; i < w.length; i++) {
            w[i] = words[per * regs.get(i / per) + i % per];
        }
        return w;
    }

    /** Half {@code h} (0: low) of an f16 pair as an f32's bits. */
    private static int widened(long pair, int h) {
        return Float.floatToRawIntBits(SmallFloats.halfToFloat((int) (pair >>> 16 * h) & 0xffff));
    }

    /** Two f32s rounded to f16 (to nearest even), {@code lo} in the low half. */
    private static long packed(int lo, int hi) {
        return SmallFloats.toHalf(Float.intBitsToFloat(lo)) & 0xffffL
                | (SmallFloats.toHalf(Float.intBitsToFloat(hi)) & 0xffffL) << 16;
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
        return srcs(o, n, io, PtxType.B32);
    }

    private static Src[] srcs(Operand o, int n, MmaInstruction.Operands io, PtxType type)
            throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> e = elements(o);
        if (e.size() != n) {
            throw new InstructionCompiler.Unsupported("wmma fragment of " + e.size() + " registers");
        }
        Src[] r = new Src[n];
        for (int i = 0; i < n; i++) {
            r[i] = io.src(e.get(i), type);
        }
        return r;
    }
}
