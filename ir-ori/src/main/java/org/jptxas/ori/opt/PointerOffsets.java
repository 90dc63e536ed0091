package org.jptxas.ori.opt;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * The frame pointers of {@link LocalArrayPromotion} that hold one known frame offset wherever they are read: every
 * write of the register is unguarded and computes the same offset from a root ({@code IADD3 r, SP, imm, RZ}: imm),
 * immediates and other such pointers ({@code MOV}, {@code IADD3} without carry-in). nvcc's code reaches a fixed word
 * of a local array through such pointers ({@code add.u64 %rd6, %SPL, 0; st.local.u32 [%rd6+24], ...}); with their
 * offset known, the access is a plain copy instead of a compare and predicated copy per word. A pointer stepped in a
 * loop has writes of different offsets and stays computed.
 */
final class PointerOffsets {
    private PointerOffsets() {
    }

    /** The known offsets of {@code taint}'s registers, by 32-bit part. */
    static Map<Reg, Long> of(PointerTaint taint) {
        Map<Reg, Long> known = new HashMap<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Reg p : taint.tainted()) {
                if (!known.containsKey(p)) {
                    Long v = agreed(p, taint.writes(p), taint, known);
                    if (v != null) {
                        known.put(p, v);
                        grew = true;
                    }
                }
            }
        }
        return known;
    }

    /** The offset every write of {@code r} computes, or null when some write's is not known or they differ. */
    private static Long agreed(Reg r, List<Instr> writes, PointerTaint taint, Map<Reg, Long> known) {
        Long agreed = null;
        for (Instr in : writes) {
            Long v = in.dsts().get(0).equals(r) ? offset(in, taint, known) : null;
            if (v == null || agreed != null && !agreed.equals(v)) {
                return null;
            }
            agreed = v;
        }
        return agreed;
    }

    /** The offset {@code in} writes to its first destination, or null when it is not known. */
    private static Long offset(Instr in, PointerTaint taint, Map<Reg, Long> known) {
        if (!in.guard().isAlways()) {
            return null;
        }
        if (taint.isRoot(in)) {
            Long imm = OpInfo.const32(in.srcs().get(1));
            return imm == null ? null : (long) (int) (long) imm;
        }
        boolean copy = OpInfo.is(in, "MOV") && in.srcs().size() == 1;
        boolean add = OpInfo.is(in, "IADD3") && in.srcs().size() == 3 && !in.hasMod("X");
        if (!copy && !add) {
            return null;
        }
        long sum = 0;
        for (Src s : in.srcs()) {
            Long v = s.value() instanceof Reg reg && !reg.isZero() ? (s.hasModifiers() ? null : known.get(reg))
                    : OpInfo.const32(s);
            if (v == null) {
                return null;
            }
            sum += (int) (long) v; // a 32-bit word: negative immediates subtract
        }
        return sum;
    }
}
