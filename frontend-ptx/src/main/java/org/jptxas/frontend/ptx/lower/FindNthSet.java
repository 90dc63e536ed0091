package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code fns.b32 d, mask, base, offset} by ptxas's method, with selects where ptxas branches on the offset's sign:
 * offset 0 keeps only bit {@code base} and looks for one bit; a negative offset bit-reverses the mask and looks from
 * {@code 31 - base}; the mask below the start is cleared ({@code SHF.L.U32 -1, start}: 0 from 32 up), then the
 * {@code n}-th set bit is found by halving (16, 8, 4, 2, 1 bits: when the low part has fewer than {@code n} set bits,
 * skip it), mirrored back for a reverse search, and -1 when the mask has fewer than {@code n} set bits (signed).
 */
final class FindNthSet {
    private FindNthSet() {
    }

    static void lower(Instruction insn, LoweringContext cx, MathEmitter m) {
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Reg mask = m.r(), base = m.r(), offset = m.r();
        MovLowerer.move(cx, mask, cx.src(Ptx.op(insn, 1), PtxType.B32), PtxType.B32);
        MovLowerer.move(cx, base, cx.src(Ptx.op(insn, 2), PtxType.U32), PtxType.B32);
        MovLowerer.move(cx, offset, cx.src(Ptx.op(insn, 3), PtxType.S32), PtxType.B32);
        Reg zero = m.p(), reverse = m.p();
        m.isetp("EQ", zero, offset, RZ);
        m.isetp("LT", reverse, offset, RZ);
        // offset 0: the bit at base, one bit to find
        Reg one = m.imm(1);
        Reg baseBit = m.r();
        m.shf("L.U32", baseBit, one, base, RZ);
        Reg onlyBase = m.r();
        m.lop3(onlyBase, mask, baseBit, RZ, 0xc0);
        Reg forward = m.r();
        m.sel(forward, onlyBase, mask, zero);
        Reg forwardCount = m.r();
        m.sel(forwardCount, one, offset, zero);
        // a negative offset: the reversed mask from 31 - base
        Reg reversed = m.r();
        m.op("BREV", "", reversed, mask);
        Reg negOffset = m.r();
        m.iadd3(negOffset, MathEmitter.neg(offset), RZ, RZ);
        Reg mirroredBase = m.r();
        m.iadd3(mirroredBase, MathEmitter.neg(base), 31, RZ);
        Reg searched = m.r(), n = m.r(), start = m.r();
        m.sel(searched, reversed, forward, reverse);
        m.sel(n, negOffset, forwardCount, reverse);
        m.sel(start, mirroredBase, base, reverse);
        Reg allOnes = m.imm(-1);
        Reg above = m.r();
        m.shf("L.U32", above, allOnes, start, RZ);
        Reg bits = m.r();
        m.lop3(bits, searched, above, RZ, 0xc0);
        Reg total = m.r();
        m.op("POPC", "", total, bits);
        Reg pos = m.imm(0);
        Reg left = n;
        for (int width = 16; width >= 1; width >>= 1) {
            Reg low = m.r();
            m.lop3(low, bits, (int) ((1L << width) - 1), RZ, 0xc0);
            Reg count = m.r();
            m.op("POPC", "", count, low);
            Reg skip = m.p();
            m.isetp("LT.U32", skip, count, left);
            Reg shifted = m.r(), nextBits = m.r();
            m.shf("R.U32.HI", shifted, RZ, width, bits);
            m.sel(nextBits, shifted, bits, skip);
            Reg less = m.r(), nextLeft = m.r();
            m.iadd3(less, left, MathEmitter.neg(count), RZ);
            m.sel(nextLeft, less, left, skip);
            Reg advanced = m.r(), nextPos = m.r();
            m.iadd3(advanced, pos, width, RZ);
            m.sel(nextPos, advanced, pos, skip);
            bits = nextBits;
            left = nextLeft;
            pos = nextPos;
        }
        Reg mirrored = m.r(), found = m.r();
        m.iadd3(mirrored, MathEmitter.neg(pos), 31, RZ);
        m.sel(found, mirrored, pos, reverse);
        Reg missing = m.p();
        m.isetp("LT", missing, total, n);
        m.sel(d, found, -1, MathEmitter.not(missing));
    }
}
