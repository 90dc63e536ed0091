package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeSet;

/**
 * Two 32-bit accesses of neighbouring words {@code [b+8k]} and {@code [b+8k+4]} through one base register become one
 * 64-bit access ({@code LD.E.64}, {@code LDG.E.64}, {@code LDS.64}, {@code ST.E.64}, ...) when the base is known to be
 * 8-byte aligned, as ptxas 13 does: a struct's two {@code int} fields next to its pointers are read with one load.
 *
 * <p>ptxas's proof of alignment, found by experiment, is an access of 8 or more bytes at {@code [b+8j]} through the
 * same base register in the same block, before or after the pair (PTX requires such an access to be naturally
 * aligned, so {@code b} is a multiple of 8 wherever it holds that value). A 4-byte access at {@code b+8j}, an 8-byte
 * one at {@code b+4}, or one only on a conditional path leaves the words apart.
 *
 * <p>Loads: the pair loads at the first load's place (with its line) into a fresh register pair, and moves hand the
 * halves to the old destinations, which copy propagation takes from there. Between the two loads may lie register
 * arithmetic and other weak loads, not a store, fence or ordered access. Stores: the pair stores at the second store's
 * place, with its line (ptxas's too); only register arithmetic may lie between, as the first store moves down past
 * it. Neither form moves an access that is guarded, ordered ({@code STRONG}, {@code MMIO}) or carries a cache policy.
 */
public final class AlignedWordPairs implements Pass {
    private static final OpcodeSet LOADS = OpcodeSet.of("LDG", "LDS", "LD");
    private static final OpcodeSet STORES = OpcodeSet.of("STG", "STS", "ST");
    /** Register-only instructions besides {@link OpInfo#isPure}: they neither touch memory nor order it. */
    private static final OpcodeSet NO_MEMORY = OpcodeSet.of("HMMA", "IMMA", "DMMA", "BMMA", "QMMA");
    /** Modifiers a weak 32-bit access may carry; the size modifier goes after the first three. */
    private static final Set<String> BEFORE_SIZE = Set.of("E", "EF", "LU");
    private static final Set<String> AFTER_SIZE = Set.of("CONSTANT");

    @Override
    public String name() {
        return "wordpairs";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> ins = b.instrs();
            for (int i = 0; i < ins.size(); i++) {
                Addr a = wordAddress(ins.get(i));
                if (a == null) {
                    continue;
                }
                int j = partner(ins, i, a);
                if (j >= 0 && alignedBase(ins, i, j, a.base()) && merge(body, ins, i, j, cx)) {
                    changed = true;
                }
            }
        }
        return changed;
    }

    /** The address of an unguarded, weak 4-byte load or store through a virtual base register, or null. */
    private static Addr wordAddress(Instr in) {
        boolean load = LOADS.contains(in.op());
        if (!load && !STORES.contains(in.op()) || !in.guard().isAlways()) {
            return null;
        }
        for (String m : in.mods()) {
            if (!BEFORE_SIZE.contains(m) && !(load && AFTER_SIZE.contains(m))) {
                return null; // a size (U8, 64, ...), an ordering (STRONG, SYS) or anything unknown
            }
        }
        if (load ? in.srcs().size() != 1 || in.dsts().size() != 1 || in.dsts().get(0).width() != 1
                || in.dsts().get(0).file() != RegFile.R
                : in.srcs().size() != 2 || !in.dsts().isEmpty() || in.srcs().get(1).hasModifiers()
                        || in.srcs().get(1).value() instanceof Reg v && v.width() != 1) {
            return null;
        }
        Src s = in.srcs().get(0);
        if (s.hasModifiers() || !(s.value() instanceof Addr a) || a.uniformBase() != null || !a.base().virtual()) {
            return null;
        }
        if (load && writes(in, a.base())) {
            return null; // the base's value after this load is another one
        }
        return a;
    }

    /**
     * The index of the access that pairs with {@code ins[i]} (same opcode and modifiers, the neighbouring word of an
     * 8-byte-aligned pair), found before anything that may not lie between them, or -1.
     */
    private static int partner(List<Instr> ins, int i, Addr a) {
        Instr first = ins.get(i);
        boolean load = LOADS.contains(first.op());
        for (int j = i + 1; j < ins.size(); j++) {
            Instr x = ins.get(j);
            Addr c = x.op() == first.op() && x.mods().equals(first.mods()) ? wordAddress(x) : null;
            if (c != null && c.base().equals(a.base()) && Math.abs(c.offset() - a.offset()) == 4
                    && Math.floorMod(Math.min(c.offset(), a.offset()), 8) == 0) {
                return j;
            }
            boolean passable = OpInfo.isPure(x) || NO_MEMORY.contains(x.op())
                    || load && LOADS.contains(x.op()) && weak(x);
            if (!passable || writes(x, a.base())) {
                return -1;
            }
        }
        return -1;
    }

    private static boolean weak(Instr in) {
        for (String m : in.mods()) {
            if (m.equals("STRONG") || m.equals("MMIO") || m.equals("VOLATILE")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the block accesses 8 or more bytes at {@code [base+8j]}, unguarded, with {@code base} holding the value
     * it holds at the pair {@code ins[i]}, {@code ins[j]}.
     */
    private static boolean alignedBase(List<Instr> ins, int i, int j, Reg base) {
        for (int k = 0; k < ins.size(); k++) {
            Instr e = ins.get(k);
            if (!e.guard().isAlways() || !LOADS.contains(e.op()) && !STORES.contains(e.op())
                    || !e.hasMod("64") && !e.hasMod("128") || e.srcs().isEmpty()
                    || !(e.srcs().get(0).value() instanceof Addr a) || !a.base().equals(base)
                    || a.uniformBase() != null || Math.floorMod(a.offset(), 8) != 0) {
                continue;
            }
            // an instruction's write lands after its reads: writes in [from, to) separate the values read
            int from = Math.min(k, i);
            int to = Math.max(k, j);
            boolean same = true;
            for (int m = from; m < to && same; m++) {
                same = !writes(ins.get(m), base);
            }
            if (same) {
                return true;
            }
        }
        return false;
    }

    private static boolean writes(Instr in, Reg r) {
        for (Reg d : in.dsts()) {
            if (d.sameRegister(r)) {
                return true;
            }
        }
        return false;
    }

    /** Rewrites the pair {@code ins[i]}, {@code ins[j]} (i < j) into one 64-bit access; false if it does not encode. */
    private static boolean merge(FunctionBody body, List<Instr> ins, int i, int j, OptContext cx) {
        Instr first = ins.get(i);
        Instr second = ins.get(j);
        Addr a = (Addr) first.srcs().get(0).value();
        Addr c = (Addr) second.srcs().get(0).value();
        int firstHalf = a.offset() < c.offset() ? 0 : 1;
        Addr low = firstHalf == 0 ? a : c;
        Reg pair = body.newVirtual(RegFile.R, 2);
        List<String> mods = new ArrayList<>(first.mods());
        int at = 0;
        while (at < mods.size() && BEFORE_SIZE.contains(mods.get(at))) {
            at++;
        }
        mods.add(at, "64");
        boolean load = LOADS.contains(first.op());
        Instr wide = load
                ? new Instr(first.op(), mods, List.of(pair), List.of(Src.of(low)), Guard.ALWAYS, first.line())
                : new Instr(first.op(), mods, List.of(), List.of(Src.of(low), Src.of(pair)), Guard.ALWAYS,
                        second.line());
        if (!cx.canEncode(wide).orElse(true)) {
            return false;
        }
        if (load) {
            Reg d = first.dsts().get(0);
            Reg e = second.dsts().get(0);
            ins.set(i, wide);
            ins.add(i + 1, loadedHalf(pair.component(firstHalf), d, first.line()));
            ins.set(j + 1, loadedHalf(pair.component(1 - firstHalf), e, first.line()));
        } else {
            Src v = first.srcs().get(1);
            Src w = second.srcs().get(1);
            ins.set(i, storedHalf(pair.component(firstHalf), v, first.line()));
            ins.set(j, storedHalf(pair.component(1 - firstHalf), w, second.line()));
            ins.add(j + 1, wide);
        }
        return true;
    }

    /** {@code MOV dst, half} for a load's old destination. */
    private static Instr loadedHalf(Reg half, Reg dst, int line) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(dst), List.of(Src.of(half)), Guard.ALWAYS, line);
    }

    /** {@code MOV half, value} for a store's value. */
    private static Instr storedHalf(Reg half, Src value, int line) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(half), List.of(value), Guard.ALWAYS, line);
    }
}
