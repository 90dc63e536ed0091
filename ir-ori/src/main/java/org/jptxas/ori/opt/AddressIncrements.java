package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Liveness;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * The address half of {@link AddressModeFolding} for pointers stepped in place: {@code p += c} repeated in one block
 * (a fully unrolled loop's copies, each with the loop's own increment of the same PTX register) with loads, stores and
 * atomics through {@code p} between them. A register written more than once is no single definition, so the
 * def-based folding cannot see {@code p} as the previous {@code p} plus a constant; here the increments are taken out
 * and each access reads {@code [p + off + sum of the increments before it]}, as ptxas 13 writes the unrolled copies
 * ({@code LDS [R15+0x4]}, {@code [R15+0x8]}, ...). One increment by the sum is put back where something else reads
 * {@code p} or a part of it is written, and at the end of the block when {@code p} is live there; none when the
 * block overwrites {@code p} or it is dead, so the chain of 64-bit add pairs goes.
 *
 * <p>Increments: a 32-bit {@code IADD3 p, p, K, RZ}; a 64-bit pair {@code IADD3 p.lo, P, p.lo, K, RZ} then
 * {@code IADD3.X p.hi, p.hi, H, RZ, P, !PT} with {@code H} 0 or -1, its carry {@code P} read by nothing else. Only
 * registers with at least two increments in the block are rewritten (a loop's single increment gains nothing by
 * moving). An access whose new offset does not encode (the backend is asked; without one, the signed 24-bit field
 * every SASS memory form has) gets the increment put back before it instead.
 */
final class AddressIncrements {
    /** The most a 64-bit pair's delta may reach: its high word must stay 0 or -1. */
    private static final long MAX_DELTA = 0xffffffffL;

    private AddressIncrements() {}

    /** One increment of {@code reg} by {@code delta}: {@code lo} (the only instruction when 32-bit) and {@code hi}. */
    record Increment(Reg reg, long delta, Instr lo, Instr hi) {}

    /** The increments of {@code reg} not yet put back, their sum, and the line of the last one (for the sum's add). */
    private static final class Pending {
        final Increment first;
        long delta;
        int line;

        Pending(Increment first) {
            this.first = first;
        }
    }

    static boolean run(FunctionBody body, OptContext cx) {
        Liveness live = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            Map<Reg, Integer> counts = new HashMap<>();
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Reg r = candidateRegister(instrs.get(i));
                if (r != null) {
                    counts.merge(r, 1, Integer::sum);
                }
            }
            counts.values().removeIf(n -> n < 2);
            if (counts.isEmpty()) {
                continue;
            }
            if (live == null) {
                live = new Liveness(body, Cfg.of(body));
            }
            changed |= sink(body, b, counts.keySet(), live, cx);
        }
        return changed;
    }

    /** The register an instruction increments in place (the low add of a pair counts), or null: a quick filter. */
    private static Reg candidateRegister(Instr in) {
        if (!OpInfo.is(in, "IADD3") || !in.mods().isEmpty() || !in.guard().isAlways() || in.dsts().isEmpty()) {
            return null;
        }
        Reg d = in.dsts().get(0);
        if (!d.virtual() || d.file() != RegFile.R || d.isPart() && (d.part() != 0 || d.comps() != 2)
                || !d.isPart() && d.comps() != 1) {
            return null;
        }
        for (Src s : in.srcs()) {
            if (s.value() instanceof Reg r && r.equals(d) && !s.hasModifiers()) {
                return d.whole();
            }
        }
        return null;
    }

    /** Rewrites one block; {@code regs}: the registers with two increments or more in it. */
    private static boolean sink(FunctionBody body, BasicBlock b, Set<Reg> regs, Liveness live,
                                OptContext cx) {
        List<Instr> instrs = b.instrs();
        List<Instr> original = new ArrayList<>(instrs);
        Map<Reg, Pending> pending = new HashMap<>();
        // increments taken out, adds put back, accesses whose offset changed
        int[] counts = new int[3];
        for (int i = 0; i < instrs.size(); i++) {
            Instr in = instrs.get(i);
            Increment inc = regs.contains(candidateRegister(in)) ? increment(instrs, i, b, live) : null;
            if (inc != null) {
                Pending p = pending.get(inc.reg());
                long sum = (p == null ? 0 : p.delta) + inc.delta();
                if (inc.hi() == null || Math.abs(sum) <= MAX_DELTA) {
                    if (p == null) {
                        p = new Pending(inc);
                        pending.put(inc.reg(), p);
                    }
                    p.delta = inc.hi() == null ? (int) sum : sum;
                    p.line = inc.lo().line();
                    instrs.remove(inc.hi());
                    instrs.remove(i);
                    i--;
                    counts[0]++;
                    continue;
                }
            }
            if (in.isTerminator() || in.op().name().startsWith("CALL")) {
                // every path out of the block (a guarded branch in its middle too) sees the sums added
                i += flush(body, instrs, i, b, pending, live, counts);
                continue;
            }
            for (Reg r : new ArrayList<>(pending.keySet())) {
                Pending p = pending.get(r);
                if (p.delta == 0 && touches(in, r)) {
                    pending.remove(r);
                } else if (touches(in, r)) {
                    if (foldAddresses(in, r, p.delta, cx)) {
                        counts[2]++;
                        continue;
                    }
                    pending.remove(r);
                    if (!deadFrom(instrs, i, b, r, live)) {
                        List<Instr> add = materialize(body, p);
                        instrs.addAll(i, add);
                        i += add.size();
                        counts[1]++;
                    }
                }
            }
        }
        flush(body, instrs, instrs.size(), b, pending, live, counts);
        if (counts[2] == 0 && counts[1] == counts[0]) {
            // every increment was put back, only moved: the block as it was (a pass that changes nothing says so)
            instrs.clear();
            instrs.addAll(original);
            return false;
        }
        return true;
    }

    /**
     * Puts the pending sums back before {@code instrs[at]} (or at the end), each where its register is still read
     * from there on; the number of instructions inserted.
     */
    private static int flush(FunctionBody body, List<Instr> instrs, int at, BasicBlock b, Map<Reg, Pending> pending,
                             Liveness live, int[] counts) {
        int added = 0;
        for (Map.Entry<Reg, Pending> e : pending.entrySet()) {
            if (e.getValue().delta != 0 && !deadFrom(instrs, at, b, e.getKey(), live)) {
                List<Instr> add = materialize(body, e.getValue());
                instrs.addAll(at, add);
                added += add.size();
                counts[1]++;
            }
        }
        pending.clear();
        return added;
    }

    /**
     * Moves {@code delta} into the offsets of the addresses through {@code r} that {@code in} reads, when that is its
     * only use of {@code r} and every new offset encodes; false (and {@code in} unchanged) otherwise.
     */
    private static boolean foldAddresses(Instr in, Reg r, long delta, OptContext cx) {
        if (!AddressModeFolding.accessesMemory(in) || Rewrites.writes(in, r) || !in.guard().isAlways() && in.guard().predicate().sameRegister(r)) {
            return false;
        }
        List<Src> srcs = in.srcs();
        List<Src> before = new ArrayList<>(srcs);
        for (int k = 0; k < srcs.size(); k++) {
            Src s = srcs.get(k);
            if (s.value() instanceof Addr a && a.base().sameRegister(r)) {
                // a 32-bit address through the low word of a 64-bit pointer (shared, local) wraps at 32 bits
                if (a.base().isPart() && a.base().part() != 0
                        || a.uniformBase() != null && a.uniformBase().sameRegister(r)) {
                    return restore(srcs, before);
                }
                long off = a.offset() + (a.base().isPart() ? (int) delta : delta);
                if (off < AddressModeFolding.MIN_OFFSET || off > AddressModeFolding.MAX_OFFSET) {
                    return restore(srcs, before);
                }
                srcs.set(k, new Src(new Addr(a.base(), a.uniformBase(), off), s.neg(), s.abs(), s.not()));
            } else if (s.value() instanceof Addr a && a.uniformBase() != null && a.uniformBase().sameRegister(r)
                    || s.value() instanceof Reg x && x.sameRegister(r)
                    || s.value() instanceof CBank c && c.index() != null && c.index().sameRegister(r)) {
                return restore(srcs, before);
            }
        }
        // the backend knows each form's offset range (an atomic may have none)
        return cx.canEncode(in).orElse(true) || restore(srcs, before);
    }

    private static boolean restore(List<Src> srcs, List<Src> before) {
        for (int k = 0; k < srcs.size(); k++) {
            if (srcs.get(k) != before.get(k)) {
                srcs.set(k, before.get(k));
            }
        }
        return false;
    }

    /**
     * The increment that starts at {@code instrs[i]}, or null: for a 64-bit pair its high add is the next
     * instruction mentioning the pointer or the carry, and the carry is dead after it.
     */
    static Increment increment(List<Instr> instrs, int i, BasicBlock b, Liveness live) {
        Instr lo = instrs.get(i);
        Reg d = lo.dsts().get(0);
        Long k = constantAddend(lo, d);
        if (k == null) {
            return null;
        }
        if (!d.isPart()) {
            if (!OpInfo.extraDstsAreSinks(lo)) {
                return null;
            }
            return new Increment(d, (int) (long) k, lo, null);
        }
        if (lo.dsts().size() < 2 || !lo.dsts().get(1).virtual() || !lo.dsts().get(1).file().isPredicate()) {
            return null;
        }
        for (int j = 2; j < lo.dsts().size(); j++) {
            if (!lo.dsts().get(j).isZero()) {
                return null;
            }
        }
        Reg carry = lo.dsts().get(1);
        Reg p = d.whole();
        int h = i + 1;
        while (h < instrs.size() && !touches(instrs.get(h), p) && !touches(instrs.get(h), carry)) {
            h++;
        }
        if (h == instrs.size()) {
            return null;
        }
        Instr hi = instrs.get(h);
        Reg hd = hi.dsts().isEmpty() ? null : hi.dsts().get(0);
        if (!OpInfo.is(hi, "IADD3") || !hi.mods().equals(List.of("X")) || !hi.guard().isAlways()
                || hd == null || !hd.equals(p.component(1)) || !OpInfo.extraDstsAreSinks(hi) || hi.srcs().size() != 5) {
            return null;
        }
        Long high = constantAddend(hi, hd);
        Src c0 = hi.srcs().get(3);
        Boolean c1 = OpInfo.constPred(hi.srcs().get(4));
        if (high == null || !(c0.value() instanceof Reg cr) || !cr.equals(carry) || c0.hasModifiers()
                || c1 == null || c1) {
            return null;
        }
        if (!deadFrom(instrs, h + 1, b, carry, live)) {
            return null;
        }
        long delta;
        if (high == 0) {
            delta = k;
        } else if (high == 0xffffffffL) {
            delta = k - (1L << 32);
        } else {
            return null;
        }
        return new Increment(p, delta, lo, hi);
    }

    /**
     * The 32-bit constant {@code in}'s first three sources add to {@code d} (read once, unmodified), or null when
     * they are anything else.
     */
    private static Long constantAddend(Instr in, Reg d) {
        if (in.srcs().size() < 3) {
            return null;
        }
        long k = 0;
        boolean self = false;
        for (int j = 0; j < 3; j++) {
            Src s = in.srcs().get(j);
            Long v = OpInfo.const32(s);
            if (v != null) {
                k += v;
            } else if (s.value() instanceof Reg r && r.equals(d) && !s.hasModifiers() && !self) {
                self = true;
            } else {
                return null;
            }
        }
        if (!self || k > MAX_DELTA) {
            return null;
        }
        return k & MAX_DELTA;
    }

    private static boolean touches(Instr in, Reg r) {
        return Rewrites.reads(in, r) || Rewrites.writes(in, r);
    }

    /**
     * Whether the value {@code r} holds before {@code instrs[from]} is never read: the block writes every part of
     * it (unguarded) before reading one, or reads none of it and it is dead at the block's end.
     */
    static boolean deadFrom(List<Instr> instrs, int from, BasicBlock b, Reg r, Liveness live) {
        int comps = r.whole().comps();
        boolean[] written = new boolean[comps];
        int left = comps;
        for (int i = from; i < instrs.size(); i++) {
            Instr in = instrs.get(i);
            for (Reg u : in.usedRegs()) {
                if (u.sameRegister(r) && (u.isPart() ? !written[u.part()] : left > 0)) {
                    return false;
                }
            }
            if (!in.guard().isAlways()) {
                continue;
            }
            for (Reg d : in.dsts()) {
                if (!d.sameRegister(r)) {
                    continue;
                }
                for (int c = 0; c < comps; c++) {
                    if ((!d.isPart() || d.part() == c) && !written[c]) {
                        written[c] = true;
                        left--;
                    }
                }
            }
            if (left == 0) {
                return true;
            }
        }
        return !live.liveOut(b.id(), r.whole());
    }

    /**
     * The add of the pending sum, in the form the first increment had: its own instructions are rewritten (they
     * were taken out), with the sum as the constant and the last increment's line.
     */
    private static List<Instr> materialize(FunctionBody body, Pending p) {
        Increment f = p.first;
        if (f.hi() == null) {
            return List.of(addOf(f.lo(), f.reg(), p.delta & MAX_DELTA, p.line));
        }
        Reg carry = body.newVirtual(RegFile.P, 1);
        Instr lo = addOf(f.lo(), f.reg().component(0), p.delta & MAX_DELTA, p.line);
        lo.dsts().set(1, carry);
        Instr hi = addOf(f.hi(), f.reg().component(1), p.delta < 0 ? MAX_DELTA : 0, p.line);
        hi.srcs().set(3, Src.of(carry));
        return List.of(lo, hi);
    }

    /** {@code template} with its first three sources {@code self}, {@code constant}, RZ. */
    private static Instr addOf(Instr template, Reg self, long constant, int line) {
        List<Src> srcs = new ArrayList<>(template.srcs());
        srcs.set(0, Src.of(self));
        srcs.set(1, Src.of(Imm.ofInt((int) constant)));
        srcs.set(2, Src.of(Reg.RZ));
        return new Instr(template.op(), template.mods(), new ArrayList<>(template.dsts()), srcs, Guard.ALWAYS, line);
    }
}
