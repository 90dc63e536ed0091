package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.check.VideoSelectors;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.bits;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

/**
 * Bit-field and byte instructions: bfe, bfi, prmt, shf, lop3, bmsk, szext, the dot products (dp4a, dp2a) and the video
 * instructions.
 */
final class BitCompiler {
    private final InstructionCompiler ic;

    BitCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    Insn bfe() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), PtxType.U32), c = ic.src(ic.op(3), PtxType.U32);
        int bitsN = 8 * t.sizeBytes();
        boolean signed = isSigned(t);
        return ic.simple(th -> {
            long x = a.get(th);
            int pos = (int) (b.get(th) & 0xff), len = (int) (c.get(th) & 0xff);
            long sbit = 0;
            if (signed && len != 0) {
                sbit = (x >>> Math.min(pos + len - 1, bitsN - 1)) & 1;
            }
            long r = 0;
            for (int i = 0; i < bitsN; i++) {
                long bit = i < len && pos + i <= bitsN - 1 ? (x >>> (pos + i)) & 1 : sbit;
                r |= bit << i;
            }
            write(th, d, r);
        });
    }

    Insn bfi() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t), c = ic.src(ic.op(3), PtxType.U32), e = ic.src(ic.op(4), PtxType.U32);
        int bitsN = 8 * t.sizeBytes();
        return ic.simple(th -> {
            long x = a.get(th), f = b.get(th);
            int pos = (int) (c.get(th) & 0xff), len = (int) (e.get(th) & 0xff);
            for (int i = 0; i < len && pos + i <= bitsN - 1; i++) {
                long bit = (x >>> i) & 1;
                f = (f & ~(1L << (pos + i))) | (bit << (pos + i));
            }
            write(th, d, f);
        });
    }

    Insn prmt() throws ProgramException, Unsupported {
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        String mode = null;
        for (String m : ic.mods) {
            if (m.equals("f4e") || m.equals("b4e") || m.equals("rc8") || m.equals("ecl") || m.equals("ecr") || m.equals("rc16")) {
                mode = m;
            }
        }
        if (mode != null) {
            String md = mode;
            return ic.simple(th -> write(th, d, prmtMode(md, a.get(th), b.get(th), (int) c.get(th))));
        }
        return ic.simple(th -> {
            long pool = ((b.get(th) & 0xffffffffL) << 32) | (a.get(th) & 0xffffffffL);
            int s = (int) c.get(th);
            long r = 0;
            for (int i = 0; i < 4; i++) {
                int sel = (s >>> (4 * i)) & 0xf;
                long byteVal = (pool >>> (8 * (sel & 7))) & 0xff;
                if ((sel & 8) != 0) {
                    byteVal = (byteVal & 0x80) != 0 ? 0xff : 0;
                }
                r |= byteVal << (8 * i);
            }
            write(th, d, r);
        });
    }

    /** The special prmt modes: forward/backward 4-extract, replicate 8/16, edge clamp left/right. */
    private static long prmtMode(String mode, long a, long b, int c) {
        long pool = ((b & 0xffffffffL) << 32) | (a & 0xffffffffL);
        int s = c & 3;
        int[] sel = switch (mode) {
            case "f4e" -> new int[] {s, s + 1, s + 2, s + 3};
            case "b4e" -> new int[] {s, s - 1, s - 2, s - 3};
            case "rc8" -> new int[] {s, s, s, s};
            case "ecl" -> new int[] {s, Math.max(s, 1), Math.max(s, 2), 3};
            case "ecr" -> new int[] {0, Math.min(s, 1), Math.min(s, 2), s};
            default -> new int[] {(s & 1) * 2, (s & 1) * 2 + 1, (s & 1) * 2, (s & 1) * 2 + 1}; // rc16
        };
        long r = 0;
        for (int i = 0; i < 4; i++) {
            r |= ((pool >>> (8 * (sel[i] & 7))) & 0xff) << (8 * i);
        }
        return r;
    }

    Insn dot() throws ProgramException, Unsupported {
        if (ic.types.size() < 2) {
            throw ic.unsupported();
        }
        boolean aSigned = isSigned(ic.types.get(0)), bSigned = isSigned(ic.types.get(1));
        boolean four = ic.ins.opcode().equals("dp4a");
        boolean hi = ic.has("hi");
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        return ic.simple(th -> {
            int x = (int) a.get(th), y = (int) b.get(th);
            int acc = (int) c.get(th);
            if (four) {
                for (int k = 0; k < 4; k++) {
                    int p = aSigned ? (byte) (x >> (8 * k)) : (x >>> (8 * k)) & 0xff;
                    int q = bSigned ? (byte) (y >> (8 * k)) : (y >>> (8 * k)) & 0xff;
                    acc += p * q;
                }
            } else {
                for (int k = 0; k < 2; k++) {
                    int p = aSigned ? (short) (x >> (16 * k)) : (x >>> (16 * k)) & 0xffff;
                    int sh = 8 * (k + (hi ? 2 : 0));
                    int q = bSigned ? (byte) (y >> sh) : (y >>> sh) & 0xff;
                    acc += p * q;
                }
            }
            write(th, d, acc);
        });
    }

    /** Scalar video instructions, as ptxas expands them ({@link VideoSemantics}). */
    Insn video() throws ProgramException, Unsupported {
        rejectVideoSelectors();
        String op = ic.ins.opcode();
        boolean vset = op.equals("vset");
        if (ic.types.size() != (vset ? 2 : 3)) {
            throw ic.unsupported();
        }
        String cmp = vset ? ic.mods.stream().filter(m -> List.of("eq", "ne", "lt", "le", "gt", "ge").contains(m))
                .findFirst().orElseThrow(ic::unsupported) : null;
        VideoSemantics.Secondary second = ic.has("add") ? VideoSemantics.Secondary.ADD
                : ic.has("min") ? VideoSemantics.Secondary.MIN
                : ic.has("max") ? VideoSemantics.Secondary.MAX : VideoSemantics.Secondary.NONE;
        VideoSemantics.Form form = new VideoSemantics.Form(VideoSemantics.Op.of(op),
                !vset && isSigned(ic.types.get(0)), isSigned(ic.types.get(vset ? 0 : 1)), isSigned(ic.types.get(vset ? 1 : 2)),
                ic.has("sat") && !vset, ic.has("wrap"), cmp, second);
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32);
        Src c = second != VideoSemantics.Secondary.NONE ? ic.src(ic.op(3), PtxType.B32) : null;
        return ic.simple(th -> write(th, d, VideoSemantics.scalar(form, (int) a.get(th), (int) b.get(th),
                c == null ? 0 : (int) c.get(th)) & 0xffffffffL));
    }

    /** {@code vmad}, as ptxas expands it ({@link VideoSemantics#vmad}); a register operand may be negated. */
    Insn vmad() throws ProgramException, Unsupported {
        rejectVideoSelectors();
        if (ic.types.size() != 3) {
            throw ic.unsupported();
        }
        Operand oa = ic.op(1), ob = ic.op(2), oc = ic.op(3);
        boolean negA = negatedRegister(oa) != null, negB = negatedRegister(ob) != null;
        boolean negC = negatedRegister(oc) != null;
        VideoSemantics.VmadForm form = new VideoSemantics.VmadForm(isSigned(ic.types.get(1)),
                isSigned(ic.types.get(2)), ic.has("po"), ic.has("sat"), ic.has("shr7") ? 7 : ic.has("shr15") ? 15 : 0,
                negA ^ negB, negC);
        int d = ic.dst(ic.op(0));
        Src a = ic.src(negA ? negatedRegister(oa) : oa, PtxType.B32);
        Src b = ic.src(negB ? negatedRegister(ob) : ob, PtxType.B32);
        Src c = ic.src(negC ? negatedRegister(oc) : oc, PtxType.B32);
        return ic.simple(th -> write(th, d, VideoSemantics.vmad(form, (int) a.get(th), (int) b.get(th),
                (int) c.get(th)) & 0xffffffffL));
    }

    /** The register of a negated register operand ({@code -r}), else null. */
    private static Operand negatedRegister(Operand o) {
        return o instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.SymbolRef r
                ? r : null;
    }

    /**
     * SIMD video instructions on 2 half-words or 4 bytes: each lane of a and b extended by its type, the operation
     * (vavrg: the average rounded up), {@code .sat} clamping to the destination lane; the lanes packed into d, or
     * with {@code .add} their sum plus c. Every lane is written (the default mask); selectors are not modelled.
     */
    Insn videoSimd() throws ProgramException, Unsupported {
        rejectVideoSelectors();
        String name = ic.ins.opcode();
        int lanes = name.endsWith("2") ? 2 : 4;
        String op = name.substring(0, name.length() - 1);
        boolean vset = op.equals("vset");
        if (ic.types.size() != (vset ? 2 : 3)) {
            throw ic.unsupported();
        }
        boolean dSigned = !vset && isSigned(ic.types.get(0));
        boolean aSigned = isSigned(ic.types.get(vset ? 0 : 1)), bSigned = isSigned(ic.types.get(vset ? 1 : 2));
        String cmp = vset ? ic.mods.stream().filter(m -> List.of("eq", "ne", "lt", "le", "gt", "ge").contains(m))
                .findFirst().orElseThrow(ic::unsupported) : null;
        boolean sat = ic.has("sat") && !vset;
        boolean add = ic.has("add");
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        int bits = 32 / lanes;
        int mask = (1 << bits) - 1;
        return ic.simple(th -> {
            int x = (int) a.get(th), y = (int) b.get(th);
            int sum = (int) c.get(th);
            int packed = 0;
            for (int i = 0; i < lanes; i++) {
                int va = lane(x, i, bits, aSigned), vb = lane(y, i, bits, bSigned);
                int t = switch (op) {
                    case "vadd" -> va + vb;
                    case "vsub" -> va - vb;
                    case "vavrg" -> va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
                    case "vabsdiff" -> Math.abs(va - vb);
                    case "vmin" -> Math.min(va, vb);
                    case "vmax" -> Math.max(va, vb);
                    default -> VideoSemantics.compare(cmp, va, vb) ? 1 : 0;
                };
                if (sat) {
                    t = dSigned ? Math.max(-(1 << (bits - 1)), Math.min((1 << (bits - 1)) - 1, t)) : Math.max(0, Math.min(mask, t));
                }
                sum += t;
                packed |= (t & mask) << (bits * i);
            }
            write(th, d, (add ? sum : packed) & 0xffffffffL);
        });
    }

    /** Operand selectors ({@code a.b1}, {@code d.h10}) are not modelled: such an instruction stops the run by name. */
    private void rejectVideoSelectors() throws Unsupported {
        for (Operand o : ic.ops) {
            String selector = VideoSelectors.of(o);
            if (selector != null) {
                throw new Unsupported(ic.ins.fullName() + " with video selector ." + selector);
            }
        }
    }

    private static int lane(int x, int i, int bits, boolean signed) {
        int v = x >>> (bits * i);
        return signed ? (v << (32 - bits)) >> (32 - bits) : v & ((1 << bits) - 1);
    }

    Insn shf() throws ProgramException, Unsupported {
        boolean left = ic.has("l"), clamp = ic.has("clamp");
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.U32);
        return ic.simple(th -> {
            long v = ((b.get(th) & 0xffffffffL) << 32) | (a.get(th) & 0xffffffffL);
            long s = c.get(th) & 0xffffffffL;
            int n = (int) (clamp ? Math.min(s, 32) : s & 31);
            write(th, d, left ? (v << n) >>> 32 : v >>> n);
        });
    }

    Insn lop3() throws ProgramException, Unsupported {
        if (ic.op(0) instanceof Operand.Pair pair) {
            return lop3Boolean(pair);
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        Src lut = ic.src(ic.op(4), PtxType.B32);
        return ic.simple(th -> {
            long x = a.get(th), y = b.get(th), z = c.get(th);
            int l = (int) lut.get(th);
            long r = 0;
            for (int i = 0; i < 8; i++) {
                if ((l >>> i & 1) != 0) {
                    r |= ((i & 4) != 0 ? x : ~x) & ((i & 2) != 0 ? y : ~y) & ((i & 1) != 0 ? z : ~z);
                }
            }
            write(th, d, r);
        });
    }

    /**
     * {@code lop3.{and,or}.b32 d|p, a, b, c, lut, q}: d as the plain form, p = (d != 0) and/or q ({@code !q} allowed).
     */
    private Insn lop3Boolean(Operand.Pair pair) throws ProgramException, Unsupported {
        boolean and = ic.has("and");
        if (!and && !ic.has("or")) {
            throw ic.unsupported();
        }
        int d = ic.dst(pair.first()), p = ic.dst(pair.second());
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        Src lut = ic.src(ic.op(4), PtxType.B32);
        Operand qo = ic.op(5);
        boolean qNeg = qo instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
        Src q = ic.src(qNeg ? ((Expr.Unary) qo).operand() : qo, PtxType.PRED);
        return ic.simple(th -> {
            long x = a.get(th), y = b.get(th), z = c.get(th);
            int l = (int) lut.get(th);
            long r = 0;
            for (int i = 0; i < 8; i++) {
                if ((l >>> i & 1) != 0) {
                    r |= ((i & 4) != 0 ? x : ~x) & ((i & 2) != 0 ? y : ~y) & ((i & 1) != 0 ? z : ~z);
                }
            }
            boolean nonZero = (r & 0xffffffffL) != 0, k = (q.get(th) != 0) != qNeg;
            write(th, d, r);
            write(th, p, (and ? nonZero && k : nonZero || k) ? 1 : 0);
        });
    }

    Insn bmsk() throws ProgramException, Unsupported {
        boolean clamp = ic.has("clamp");
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.U32), b = ic.src(ic.op(2), PtxType.U32);
        // .wrap takes position and width modulo 32 (the ISA's a & 0x1f, b & 0x1f), not modulo 256
        return ic.simple(th -> write(th, d, org.jptxas.simulator.numeric.BitFields.bitMask((int) a.get(th),
                (int) b.get(th), !clamp) & 0xffffffffL));
    }

    Insn szext() throws ProgramException, Unsupported {
        boolean clamp = ic.has("clamp");
        boolean signed = ic.type() == PtxType.S32;
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.U32), b = ic.src(ic.op(2), PtxType.U32);
        // the register write keeps the low 32 bits
        return ic.simple(th -> write(th, d, org.jptxas.simulator.numeric.BitFields.signOrZeroExtend((int) a.get(th),
                (int) b.get(th), !clamp, signed)));
    }
}
