package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeSet;

/**
 * Address-mode folding: a memory instruction whose address base is {@code x + constant} reads {@code [x+offset]}
 * with the constant moved into the offset field when the sum fits its signed 24 bits. 32-bit bases (shared, local)
 * come from one IADD3; 64-bit bases (global, generic) from the IADD3 / IADD3.X carry pair of a 64-bit add; a
 * constant 32-bit base becomes an absolute shared address. {@code x} must be stable (one value wherever read).
 * The add is left for dead-code elimination when nothing else reads it. Atomics and reductions fold too where the
 * backend encodes the offset form (ptxas's {@code RED.E.ADD [R2.64+0x4]} for a field of a counters struct).
 * A pointer incremented in place several times in a block ({@code p += 4} in each unrolled copy of a loop) is
 * {@link AddressIncrements}'s: its accesses take the sum of the increments before them as their offset.
 */
public final class AddressModeFolding implements Pass {
    private static final OpcodeSet MEMORY = OpcodeSet.of("LDG", "STG", "LDS", "STS", "LDL", "STL", "LD", "ST");
    /** Atomics and reductions: folded only where the backend says the offset form encodes (RED [R2.64+0x4]). */
    private static final OpcodeSet ATOMIC = OpcodeSet.of("RED", "ATOMG", "ATOM", "ATOMS");
    private static final OpcodeSet ABSOLUTE_OK = OpcodeSet.of("LDS", "STS");
    static final long MIN_OFFSET = -(1L << 23);
    static final long MAX_OFFSET = (1L << 23) - 1;

    /** Whether {@code in} is a load, store, atomic or reduction: an instruction whose address may take an offset. */
    static boolean accessesMemory(Instr in) {
        return MEMORY.contains(in.op()) || ATOMIC.contains(in.op());
    }

    @Override
    public String name() {
        return "addrfold";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                boolean atomic = ATOMIC.contains(in.op());
                if (!MEMORY.contains(in.op()) && !atomic) {
                    continue;
                }
                List<Src> srcs = in.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    if (!(srcs.get(i).value() instanceof Addr a) || !a.base().virtual() || a.base().isPart()) {
                        continue;
                    }
                    Addr folded = a.base().comps() == 1 ? fold32(a, in, sd) : a.base().comps() == 2 ? fold64(a, sd) : null;
                    if (folded != null) {
                        Src s = srcs.get(i);
                        srcs.set(i, new Src(folded, s.neg(), s.abs(), s.not()));
                        if (atomic && !cx.canEncode(in).orElse(false)) {
                            srcs.set(i, s);
                            continue;
                        }
                        changed = true;
                        i--;
                    }
                }
            }
        }
        // pointers stepped in place (unrolled copies) have no single definition: the increments move into the offsets
        return AddressIncrements.run(body, cx) | changed;
    }

    private static boolean fits(long offset) {
        return offset >= MIN_OFFSET && offset <= MAX_OFFSET;
    }

    private static Addr fold32(Addr a, Instr mem, SingleDefs sd) {
        Instr def = sd.soleDef(a.base());
        if (def == null || def.srcs().size() != 3 && !OpInfo.is(def, "MOV")) {
            return null;
        }
        if (OpInfo.is(def, "MOV")) {
            Src s = OpInfo.movSource(def);
            Long v = s == null ? null : OpInfo.const32(s);
            if (v == null || !ABSOLUTE_OK.contains(mem.op()) || a.uniformBase() != null) {
                return null;
            }
            long off = a.offset() + (int) (long) v;
            return off >= 0 && fits(off) ? new Addr(Reg.RZ, null, off) : null;
        }
        if (!OpInfo.is(def, "IADD3") || !def.mods().isEmpty() || OpInfo.soleRDst(def) == null) {
            return null;
        }
        Reg x = null;
        long constant = 0;
        for (Src s : def.srcs()) {
            Long v = OpInfo.const32(s);
            if (v != null) {
                constant += (int) (long) v;
            } else if (s.value() instanceof Reg r && !s.hasModifiers() && x == null && r.file() == RegFile.R
                    && r.comps() == 1 && !r.isPart() && (r.virtual() && sd.stable(r) || isStackPointer(r))) {
                x = r;
            } else {
                return null;
            }
        }
        if (x == null) {
            return null;
        }
        long off = a.offset() + constant;
        return fits(off) ? new Addr(x, a.uniformBase(), off) : null;
    }

    /** The physical stack pointer R1: set once at entry, never rewritten. */
    private static boolean isStackPointer(Reg r) {
        return !r.virtual() && r.file() == RegFile.R && r.index() == 1;
    }

    static Addr fold64(Addr a, SingleDefs sd) {
        Reg t = a.base();
        List<Instr> defs = sd.defs(t);
        if (defs.size() != 2 || !sd.stable(t)) {
            return null;
        }
        Instr lo = null;
        Instr hi = null;
        for (Instr d : defs) {
            Reg w = d.dsts().get(0);
            if (!w.isPart()) {
                return null;
            }
            if (w.part() == 0) {
                lo = d;
            } else {
                hi = d;
            }
        }
        if (lo == null || hi == null || !OpInfo.is(lo, "IADD3") || !OpInfo.is(hi, "IADD3")
                || !lo.mods().isEmpty() || !hi.mods().equals(List.of("X"))) {
            return null;
        }
        // lo: IADD3 t.lo, P, x.lo, K, RZ (any order); hi: IADD3.X t.hi, x.hi, H, RZ, P, !PT with H 0 or -1.
        if (lo.dsts().size() < 2 || !lo.dsts().get(1).virtual() || !lo.dsts().get(1).file().isPredicate()
                || sd.uses(lo.dsts().get(1)).size() != 1) {
            return null;
        }
        for (int i = 2; i < lo.dsts().size(); i++) {
            if (!lo.dsts().get(i).isZero()) {
                return null;
            }
        }
        Reg carry = lo.dsts().get(1);
        Reg x = null;
        long k = 0;
        int regs = 0;
        for (Src s : lo.srcs()) {
            Long v = OpInfo.const32(s);
            if (v != null) {
                k += v;
            } else if (s.value() instanceof Reg r && !s.hasModifiers() && r.isPart() && r.part() == 0 && r.comps() == 2) {
                x = r.whole();
                regs++;
            } else {
                return null;
            }
        }
        if (regs != 1 || k > 0xffffffffL || !sd.stable(x)) {
            return null;
        }
        if (hi.srcs().size() != 5 || OpInfo.soleRDst(hi) == null) {
            return null;
        }
        boolean sawX = false;
        long h = 0;
        for (int i = 0; i < 3; i++) {
            Src s = hi.srcs().get(i);
            Long v = OpInfo.const32(s);
            if (v != null) {
                h += v;
            } else if (s.value() instanceof Reg r && !s.hasModifiers() && r.isPart() && r.part() == 1
                    && r.sameRegister(x) && !sawX) {
                sawX = true;
            } else {
                return null;
            }
        }
        Src c0 = hi.srcs().get(3);
        Boolean c1 = OpInfo.constPred(hi.srcs().get(4));
        if (!sawX || !(c0.value() instanceof Reg cr) || !cr.sameRegister(carry) || c0.not()
                || c1 == null || c1) {
            return null;
        }
        h &= 0xffffffffL;
        long offset;
        if (h == 0) {
            offset = k;
        } else if (h == 0xffffffffL) {
            offset = k - (1L << 32);
        } else {
            return null;
        }
        long off = a.offset() + offset;
        return fits(off) ? new Addr(x, a.uniformBase(), off) : null;
    }
}
