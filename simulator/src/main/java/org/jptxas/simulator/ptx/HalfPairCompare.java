package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;

/**
 * {@code setp} and {@code set} on {@code .f16x2}/{@code .bf16x2} (PTX ISA "Half Precision Comparison Instructions"):
 * each 16-bit lane is compared on its own, then combined with the predicate c by the boolean operator. setp writes the
 * low lane's result to p and the high lane's to q; set writes each lane of d: 1.0 in the lane's own format for a
 * float destination, 0xffff for an integer one.
 */
final class HalfPairCompare {
    private HalfPairCompare() {}

    /** How the two sources and the optional predicate are read, shared by setp and set. */
    record Sources(Src a, Src b, Src c, boolean cNeg, String bool, boolean ftz,
                   InstructionCompiler.Compare lane) {
        /** Bit i: the comparison of lane i, after the boolean operator. */
        int lanes(ThreadState th) {
            long x = a.get(th), y = b.get(th);
            int r = 0;
            for (int i = 0; i < 2; i++) {
                long hx = x >>> (16 * i) & 0xffff, hy = y >>> (16 * i) & 0xffff;
                if (ftz) {
                    hx = flush(hx);
                    hy = flush(hy);
                }
                boolean t = lane.test(hx, hy);
                if (bool != null) {
                    boolean k = (c.get(th) != 0) != cNeg;
                    t = switch (bool) {
                        case "and" -> t && k;
                        case "or" -> t || k;
                        default -> t ^ k;
                    };
                }
                r |= (t ? 1 : 0) << i;
            }
            return r;
        }
    }

    /** An f16 lane under .ftz: a subnormal is a zero of its sign. */
    static long flush(long h) {
        return (h & 0x7c00) == 0 ? h & 0x8000 : h;
    }

    /** {@code setp...f16x2 p|q, a, b{, c}}: p the low lane, q (or -1) the high lane. */
    static Insn.ThreadOp setp(Sources s, int p, int q) {
        return th -> {
            int r = s.lanes(th);
            Values.write(th, p, r & 1);
            if (q >= 0) {
                Values.write(th, q, r >> 1 & 1);
            }
        };
    }

    /** {@code set...dtype.f16x2 d, a, b{, c}}: each 16-bit lane of d is "true" or 0. */
    static Insn.ThreadOp set(Sources s, PtxType dt, int d) {
        long yes = dt == PtxType.F16X2 ? 0x3c00 : dt == PtxType.BF16X2 ? 0x3f80 : 0xffff;
        return th -> {
            int r = s.lanes(th);
            Values.write(th, d, ((r & 1) != 0 ? yes : 0) | ((r & 2) != 0 ? yes << 16 : 0));
        };
    }
}
