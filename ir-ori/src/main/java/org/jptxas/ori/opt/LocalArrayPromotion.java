package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Keeps a small local frame in registers, one per word, as ptxas does (measured with ptxas 13, sm_80, -O1 and -O3,
 * on {@code int a[N]} with constant and computed indices: no STL/LDL up to N = 85 words, local memory from 88 on;
 * {@code float} alike; {@code double} and {@code char} arrays stay in local memory; so do some arrays with
 * computed-index accesses in rolled loops, a store loop then a load loop or a read-modify-write in a loop, which this
 * pass promotes: ptxas's rule there is not known, and counting such accesses would also keep mri-q's array, which
 * ptxas promotes). A store at a computed offset
 * becomes one compare and predicated copy per word ({@code ISETP.EQ P, off, 4k; @P MOV Wk, v}), a load a chain of
 * predicated copies starting from word 0; constant offsets become plain copies.
 *
 * <p>Applies to the whole frame when every local access is an unguarded 32-bit {@code LDL}/{@code STL} of a word
 * register at the stack pointer or at a pointer into the frame, and the frame's address escapes nowhere: the stack
 * pointer is read only by those accesses and by {@code IADD3 r, R1, imm, RZ} (a pointer's root), and every value
 * computed from a pointer ({@link PointerTaint}) is read only by further {@code IADD3}/{@code MOV} arithmetic or as
 * an access's base. The roots then become the frame offsets themselves ({@code MOV r, imm}), so every pointer holds
 * its offset into the frame, which the compares test.
 */
public final class LocalArrayPromotion implements Pass {
    /** The largest frame ptxas 13 was seen to keep in registers (85 words kept, 88 not). */
    static final int MAX_WORDS = 85;

    static final Reg SP = Reg.phys(RegFile.R, 1, 1);

    @Override
    public String name() {
        return "local-promote";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        long frame = frameBytes(body);
        if (frame <= 0 || frame % 4 != 0) {
            return false;
        }
        PointerTaint taint = PointerTaint.of(body, SP);
        if (taint == null) {
            return false;
        }
        // the words past the declared arrays are the allocation's padding: no access reaches them
        long declared = body.declaredLocalBytes();
        long used = declared >= 0 ? Math.min(frame, (declared + 3) / 4 * 4) : frame;
        int words = (int) (used / 4);
        Map<Reg, Long> offsets = PointerOffsets.of(taint);
        SingleDefs defs = new SingleDefs(body);
        Map<Instr, Addr> addrs = new HashMap<>();
        Map<Instr, Long> at = new HashMap<>();
        // every access must be a word inside the frame; a constant one at a known word
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (isAccess(in)) {
                    Addr a = rebased((Addr) in.srcs().get(0).value(), defs);
                    Long k = wordOffset(a, offsets);
                    if (a.offset() % 4 != 0 || k != null && (k < 0 || k >= used || k % 4 != 0)) {
                        return false;
                    }
                    addrs.put(in, a);
                    if (k != null) {
                        at.put(in, k);
                    }
                }
            }
        }
        if (words == 0 || words > MAX_WORDS || addrs.isEmpty() || FrameLoopRule.keepsInMemory(body, at)) {
            return false;
        }
        Map<Instr, BitSet> liveAfter = FrameWordLiveness.afterComputedStores(body, at, words);
        PointerRoots roots = PointerRoots.of(body, taint, used);
        Reg[] w = new Reg[words];
        for (int k = 0; k < words; k++) {
            w[k] = body.newVirtual(RegFile.R, 1);
        }
        for (BasicBlock b : body.blocks()) {
            List<Instr> out = new ArrayList<>(b.instrs().size());
            for (Instr in : b.instrs()) {
                if (taint.isRoot(in)) {
                    // the pointer holds its offset into the frame from now on
                    out.add(new Instr(OpInfo.op("MOV"), List.of(), List.of(in.dsts().get(0)),
                            List.of(in.srcs().get(1)), in.guard(), in.line()));
                } else if (isAccess(in)) {
                    Addr a = addrs.get(in);
                    rewrite(body, in, a, at.get(in), liveAfter.get(in), roots.reach(a.base()), w, out);
                } else {
                    out.add(in);
                }
            }
            b.instrs().clear();
            b.instrs().addAll(out);
        }
        return true;
    }

    /** The frame's size from its allocation {@code IADD3 R1, R1, -size, RZ}, or 0 when there is not exactly one. */
    static long frameBytes(FunctionBody body) {
        long size = 0;
        int allocations = 0;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                long s = frameBytesOf(in);
                if (s != 0) {
                    size = s;
                    allocations++;
                }
            }
        }
        return allocations == 1 ? size : 0;
    }

    /** The size {@code in} allocates when it is {@code IADD3 R1, R1, -size, RZ} (negative: a release), else 0. */
    static long frameBytesOf(Instr in) {
        if (in.dsts().contains(SP) && OpInfo.is(in, "IADD3") && in.srcs().size() == 3
                && in.srcs().get(0).equals(Src.of(SP)) && in.srcs().get(1).value() instanceof Imm imm
                && !in.srcs().get(1).hasModifiers() && OpInfo.isRZ(in.srcs().get(2))) {
            return -(long) (int) imm.bits();
        }
        return 0;
    }

    /** A local access {@link PointerTaint} accepted: a word LDL or STL whose address is operand 0. */
    static boolean isAccess(Instr in) {
        return OpInfo.is(in, "LDL") || OpInfo.is(in, "STL");
    }

    /** The frame offset {@code a} reaches when its base holds a known offset (the stack pointer: 0), else null. */
    private static Long wordOffset(Addr a, Map<Reg, Long> offsets) {
        Long base = a.base().equals(SP) ? Long.valueOf(0) : offsets.get(a.base());
        return base == null ? null : base + a.offset();
    }

    /**
     * {@code a} with its base replaced by the pointer it was computed from, {@code IADD3 b, x, imm, RZ}, while both
     * have one write each (so {@code x} holds the same value at the access as where {@code b} was computed): loads
     * at {@code [b-8]} and {@code [x+16]} with {@code b = x + 0x10} then test {@code x} against the same offsets and
     * share their compares.
     */
    private static Addr rebased(Addr a, SingleDefs defs) {
        for (int hops = 0; hops < 8 && !a.base().equals(SP); hops++) {
            Instr def = defs.soleWrite(a.base());
            if (def == null || !OpInfo.is(def, "IADD3") || def.srcs().size() != 3 || def.hasMod("X")
                    || !def.dsts().get(0).equals(a.base())) {
                return a;
            }
            Reg from = null;
            long add = 0;
            for (Src s : def.srcs()) {
                Long v = OpInfo.const32(s);
                if (v != null) {
                    add += (int) (long) v;
                } else if (from == null && s.value() instanceof Reg r && !s.hasModifiers()
                        && defs.soleWrite(r) != null) {
                    from = r;
                } else {
                    return a;
                }
            }
            if (from == null) {
                return a;
            }
            a = new Addr(from, a.uniformBase(), a.offset() + add);
        }
        return a;
    }

    /**
     * Rewrites the access {@code in} at {@code a}, at frame offset {@code at} when known (null: computed); a
     * computed store writes only the words {@code live} names; a computed access reaches the bytes {@code reach}
     * names (from, to) only.
     */
    private static void rewrite(FunctionBody body, Instr in, Addr a, Long at, BitSet live, long[] reach, Reg[] w,
                                List<Instr> out) {
        int first = (int) (reach[0] / 4);
        int end = (int) Math.min(w.length, reach[1] / 4);
        boolean load = OpInfo.is(in, "LDL");
        int line = in.line();
        if (at != null) {
            int k = (int) (at / 4);
            out.add(load ? mov(in.dsts().get(0), Src.of(w[k]), Guard.ALWAYS, line)
                    : mov(w[k], in.srcs().get(1), Guard.ALWAYS, line));
            return;
        }
        if (load) {
            // a chain from word 0, into a new register: the destination may be the address's base
            Reg t = body.newVirtual(RegFile.R, 1);
            out.add(mov(t, Src.of(w[first]), Guard.ALWAYS, line));
            for (int k = first + 1; k < end; k++) {
                Reg p = compare(body, a, k, line, out);
                out.add(mov(t, Src.of(w[k]), new Guard(p, false), line));
            }
            out.add(mov(in.dsts().get(0), Src.of(t), Guard.ALWAYS, line));
        } else {
            for (int k = live.nextSetBit(first); k >= 0 && k < end; k = live.nextSetBit(k + 1)) {
                Reg p = compare(body, a, k, line, out);
                out.add(mov(w[k], in.srcs().get(1), new Guard(p, false), line));
            }
        }
    }

    /** {@code ISETP.EQ p, base, 4k - offset}: whether the access {@code a} is at word {@code k}. */
    private static Reg compare(FunctionBody body, Addr a, int k, int line, List<Instr> out) {
        Reg p = body.newVirtual(RegFile.P, 1);
        out.add(new Instr(OpInfo.op("ISETP"), List.of("EQ", "AND"), List.of(p, Reg.PT),
                List.of(Src.of(a.base()), Src.of(Imm.ofInt((int) (4L * k - a.offset()))), Src.of(Reg.PT)),
                Guard.ALWAYS, line));
        return p;
    }

    private static Instr mov(Reg d, Src s, Guard g, int line) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(d), List.of(s), g, line);
    }

    /** For tests: the registers {@link PointerTaint} found to carry frame addresses. */
    static Set<Reg> pointers(FunctionBody body) {
        PointerTaint t = PointerTaint.of(body, SP);
        return t == null ? Set.of() : new HashSet<>(t.tainted());
    }
}
