package org.jptxas.simulator.ptx;

import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;

/**
 * 128-bit registers ({@code .reg .b128}) in the interpreter: two consecutive 64-bit register slots, the low half first
 * (the declaration allocates both, {@link FunctionCompiler}). Loads, stores and {@code mov} packing/unpacking move
 * both halves; memory is little-endian, so the low half is at the lower address.
 */
final class Wide128 {
    private Wide128() {}

    /** {@code ld.b128 d, [a]}: {@code d} the first slot of the destination. */
    static Insn.ThreadOp load(AddressSpace s, Src addr, int d) {
        return th -> {
            long a = aligned(s, addr.get(th));
            long lo = th.machine.load(th, s, a, 8), hi = th.machine.load(th, s, a + 8, 8);
            Values.write(th, d, lo);
            Values.write(th, d + 1, hi);
        };
    }

    /** {@code st.b128 [a], r}: {@code r} the first slot of the source. */
    static Insn.ThreadOp store(AddressSpace s, Src addr, int r) {
        return th -> {
            long a = aligned(s, addr.get(th));
            th.machine.store(th, s, a, 8, th.frame.regs[r]);
            th.machine.store(th, s, a + 8, 8, th.frame.regs[r + 1]);
        };
    }

    /** {@code st.b128 [a], literal}: the 64-bit literal zero-extended (as ptxas does). */
    static Insn.ThreadOp store(AddressSpace s, Src addr, Src literal) {
        return th -> {
            long a = aligned(s, addr.get(th));
            th.machine.store(th, s, a, 8, literal.get(th));
            th.machine.store(th, s, a + 8, 8, 0);
        };
    }

    /** {@code mov.b128 d, literal}: zero-extended. */
    static Insn.ThreadOp copy(int d, Src literal) {
        return th -> {
            Values.write(th, d, literal.get(th));
            Values.write(th, d + 1, 0);
        };
    }

    /**
     * {@code atom.exch.b128 d, [a], b} and {@code atom.cas.b128 d, [a], cmp, b} ({@code cmp} -1 for exch): the old 16
     * bytes into {@code d}; cas stores the value ({@code lo}, {@code hi}) only when all 16 bytes equal {@code cmp}.
     */
    static Insn.ThreadOp atomic(AddressSpace s, Src addr, int d, int cmp, Src lo, Src hi) {
        return th -> {
            long a = aligned(s, addr.get(th));
            long oldLo = th.machine.load(th, s, a, 8), oldHi = th.machine.load(th, s, a + 8, 8);
            boolean swap = cmp < 0 || oldLo == th.frame.regs[cmp] && oldHi == th.frame.regs[cmp + 1];
            if (swap) {
                long newLo = lo.get(th), newHi = hi.get(th);
                th.machine.store(th, s, a, 8, newLo);
                th.machine.store(th, s, a + 8, 8, newHi);
            }
            Values.write(th, d, oldLo);
            Values.write(th, d + 1, oldHi);
        };
    }

    private static long aligned(AddressSpace s, long a) {
        if ((a & 15) != 0) {
            throw new MemoryAccessException(s, a, 16, "misaligned 128-bit access");
        }
        return a;
    }

    /** {@code mov.b128 d, r}. */
    static Insn.ThreadOp copy(int d, int r) {
        return th -> {
            long lo = th.frame.regs[r], hi = th.frame.regs[r + 1];
            Values.write(th, d, lo);
            Values.write(th, d + 1, hi);
        };
    }

    /** {@code mov.b128 {e0, e1, ...}, r}: element i of {@code bytes} bytes from bit 8 * bytes * i (-1: a sink). */
    static Insn.ThreadOp unpack(int[] elements, int bytes, int r) {
        return th -> {
            long lo = th.frame.regs[r], hi = th.frame.regs[r + 1];
            for (int i = 0; i < elements.length; i++) {
                int bit = 8 * bytes * i;
                Values.write(th, elements[i], bit < 64 ? lo >>> bit : hi >>> (bit - 64));
            }
        };
    }

    /** {@code mov.b128 d, {e0, e1, ...}}: the elements' low {@code bytes} bytes side by side. */
    static Insn.ThreadOp pack(int d, Src[] elements, int bytes) {
        long m = Values.mask(bytes);
        return th -> {
            long lo = 0, hi = 0;
            for (int i = 0; i < elements.length; i++) {
                int bit = 8 * bytes * i;
                long v = elements[i].get(th) & m;
                if (bit < 64) {
                    lo |= v << bit;
                } else {
                    hi |= v << (bit - 64);
                }
            }
            Values.write(th, d, lo);
            Values.write(th, d + 1, hi);
        };
    }
}
