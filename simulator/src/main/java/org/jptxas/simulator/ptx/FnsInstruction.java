package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.write;

/**
 * {@code fns.b32 d, mask, base, offset}: the position of the {@code offset}-th set bit of {@code mask} counting from
 * bit {@code base} upward (a negative offset: downward; offset 0: {@code base} itself if set), -1 when there are not
 * that many. Computed as ptxas's sequence computes it, so that out-of-range operands (base above 31, offset
 * {@code -2^31}) agree too: shifts by 32 or more give 0, and the bit is found by a binary search on counts.
 */
final class FnsInstruction {
    private FnsInstruction() {
    }

    static Insn compile(InstructionCompiler ic) throws ProgramException, Unsupported {
        int d = ic.dst(ic.op(0));
        Src mask = ic.src(ic.op(1), PtxType.B32);
        Src base = ic.src(ic.op(2), PtxType.U32);
        Src offset = ic.src(ic.op(3), PtxType.S32);
        return ic.simple(t -> write(t, d, find((int) mask.get(t), (int) base.get(t), (int) offset.get(t))
                & 0xffffffffL));
    }

    static int find(int mask, int base, int offset) {
        int m = mask, n = offset, b = base;
        boolean reverse = false;
        if (offset == 0) {
            m &= shiftLeft(1, base);
            n = 1;
        } else if (offset < 0) {
            m = Integer.reverse(mask);
            n = -offset;
            b = 31 - base;
            reverse = true;
        }
        m &= shiftLeft(-1, b);
        int total = Integer.bitCount(m);
        int pos = 0;
        for (int width = 16; width >= 1; width >>= 1) {
            int c = Integer.bitCount(m & ((1 << width) - 1));
            if (Integer.compareUnsigned(c, n) < 0) {
                m >>>= width;
                n -= c;
                pos += width;
            }
        }
        if (reverse) {
            pos = 31 - pos;
        }
        return total < (offset == 0 ? 1 : offset < 0 ? -offset : offset) ? -1 : pos;
    }

    /** {@code SHF.L.U32}: a count of 32 or more (unsigned) shifts everything out. */
    private static int shiftLeft(int v, int count) {
        return Integer.compareUnsigned(count, 32) >= 0 ? 0 : v << count;
    }
}
