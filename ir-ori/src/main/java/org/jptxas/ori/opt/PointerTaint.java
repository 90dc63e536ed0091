package org.jptxas.ori.opt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * The registers (by 32-bit part) whose values are computed from the stack pointer, for {@link LocalArrayPromotion}:
 * the roots {@code IADD3 r, SP, imm, RZ} (RZ for offset 0), and whatever {@code IADD3}/{@code MOV} compute from a tainted register
 * (the high words and carries of 64-bit pointer arithmetic included). {@link #of} answers null when the frame's
 * address escapes or some local access is not one the promotion can rewrite:
 * <ul>
 * <li>the stack pointer read other than by a root, its own allocation or as a local access's base;</li>
 * <li>a tainted register read other than as a plain source of {@code IADD3}/{@code MOV} or a local access's base
 * (stored, compared, a guard, a generic address);</li>
 * <li>a local access other than an unguarded 32-bit {@code LDL}/{@code STL} of a general register at the stack
 * pointer or a tainted base;</li>
 * <li>an access's base with a write that is not frame-pointer arithmetic: a root, a copy of a tainted register, or an
 * {@code IADD3} adding untainted values to exactly one tainted one (so the base is always frame start plus an
 * offset, and with the roots made offsets it is that offset).</li>
 * </ul>
 */
final class PointerTaint {
    private final Set<Reg> tainted;
    private final Reg sp;
    private final Map<Reg, List<Instr>> writes;

    private PointerTaint(Set<Reg> tainted, Reg sp, Map<Reg, List<Instr>> writes) {
        this.tainted = tainted;
        this.sp = sp;
        this.writes = writes;
    }

    Set<Reg> tainted() {
        return tainted;
    }

    /** The instructions writing the 32-bit part {@code part} (whole or as a component of a wider destination). */
    List<Instr> writes(Reg part) {
        return writes.getOrDefault(part, List.of());
    }

    /** Whether {@code in} is a root {@code IADD3 r, SP, imm, RZ}. */
    boolean isRoot(Instr in) {
        return isRoot(in, sp);
    }

    static PointerTaint of(FunctionBody body, Reg sp) {
        Set<Reg> t = new HashSet<>();
        Map<Reg, List<Instr>> defs = new HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    for (Reg p : parts(d)) {
                        defs.computeIfAbsent(p, k -> new ArrayList<>()).add(in);
                    }
                }
                if (isRoot(in, sp)) {
                    t.add(in.dsts().get(0));
                }
            }
        }
        boolean grew = true;
        while (grew) {
            grew = false;
            for (BasicBlock b : body.blocks()) {
                for (Instr in : b.instrs()) {
                    if ((OpInfo.is(in, "IADD3") || OpInfo.is(in, "MOV")) && !in.dsts().contains(sp)
                            && readsAny(in, t)) {
                        for (Reg d : in.dsts()) {
                            if (!d.isZero()) {
                                grew |= t.addAll(parts(d));
                            }
                        }
                    }
                }
            }
        }
        Set<Reg> bases = new HashSet<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!accepted(in, sp, t, bases)) {
                    return null;
                }
            }
        }
        return basesArePointers(bases, defs, t, sp) ? new PointerTaint(t, sp, defs) : null;
    }

    private static boolean isRoot(Instr in, Reg sp) {
        return OpInfo.is(in, "IADD3") && in.guard().isAlways() && in.mods().isEmpty() && in.srcs().size() == 3
                && in.srcs().get(0).equals(Src.of(sp))
                && (in.srcs().get(1).value() instanceof Imm && !in.srcs().get(1).hasModifiers()
                    || OpInfo.isRZ(in.srcs().get(1))) && OpInfo.isRZ(in.srcs().get(2))
                && !in.dsts().get(0).equals(sp) && in.dsts().get(0).width() == 1
                && in.dsts().subList(1, in.dsts().size()).stream().allMatch(Reg::isZero);
    }

    /** Whether {@code in} reads the stack pointer and tainted registers only where the promotion allows. */
    private static boolean accepted(Instr in, Reg sp, Set<Reg> t, Set<Reg> bases) {
        if (!in.guard().isAlways() && tainted(in.guard().predicate(), t) || in.op().name().startsWith("CALL")) {
            return false; // a pointer as a condition; a call's frame below this one
        }
        if (in.dsts().contains(sp)) {
            // the frame's set-up: MOV R1, c[0x0][0x28] and the allocation IADD3 R1, R1, -size, RZ
            return OpInfo.is(in, "MOV") && in.srcs().get(0).value() instanceof CBank
                    || LocalArrayPromotion.frameBytesOf(in) != 0;
        }
        if (isRoot(in, sp)) {
            return true;
        }
        if (LocalArrayPromotion.isAccess(in)) {
            boolean load = OpInfo.is(in, "LDL");
            if (!in.mods().isEmpty() || !in.guard().isAlways() || in.srcs().size() != (load ? 1 : 2)
                    || !(in.srcs().get(0).value() instanceof Addr a) || a.uniformBase() != null
                    || in.srcs().get(0).hasModifiers() || a.base().width() != 1) {
                return false;
            }
            Reg data = load ? (in.dsts().size() == 1 ? in.dsts().get(0) : null)
                    : in.srcs().get(1).value() instanceof Reg r && !in.srcs().get(1).hasModifiers() ? r : null;
            if (data == null || data.file() != org.jptxas.ori.ir.RegFile.R || data.width() != 1 || data.equals(sp)
                    || !load && tainted(data, t)) {
                return false;
            }
            if (!a.base().equals(sp)) {
                if (!t.contains(a.base())) {
                    return false; // a local address not computed here: the frame is not all this function's
                }
                bases.add(a.base());
            }
            return true;
        }
        boolean arithmetic = OpInfo.is(in, "IADD3") || OpInfo.is(in, "MOV");
        List<Reg> read = new ArrayList<>();
        for (Src s : in.srcs()) {
            read.clear();
            Instr.addRegsRead(s, read);
            for (Reg r : read) {
                if (r.equals(sp)) {
                    return false;
                }
                if (tainted(r, t) && !(arithmetic && s.value() instanceof Reg)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether every write of every access base, and of the tainted registers those writes read, is frame-pointer
     * arithmetic (see the class comment).
     */
    private static boolean basesArePointers(Set<Reg> bases, Map<Reg, List<Instr>> defs, Set<Reg> t, Reg sp) {
        Deque<Reg> work = new ArrayDeque<>(bases);
        Set<Reg> seen = new HashSet<>(bases);
        while (!work.isEmpty()) {
            Reg r = work.pop();
            for (Instr d : defs.getOrDefault(r, List.of())) {
                if (isRoot(d, sp)) {
                    continue;
                }
                if (d.dsts().isEmpty() || !d.dsts().get(0).equals(r) && !parts(d.dsts().get(0)).contains(r)
                        || d.hasMod("X")) {
                    return false;
                }
                Reg from = null;
                int count = 0;
                for (int i = 0; i < d.srcs().size(); i++) {
                    Src s = d.srcs().get(i);
                    if (s.value() instanceof Reg x && tainted(x, t)) {
                        if (s.hasModifiers() || x.width() != 1) {
                            return false;
                        }
                        from = x;
                        count++;
                    }
                }
                if (count != 1 || OpInfo.is(d, "MOV") && d.srcs().size() != 1
                        || !OpInfo.is(d, "MOV") && !OpInfo.is(d, "IADD3") || d.dsts().get(0).width() != 1) {
                    return false;
                }
                if (seen.add(from)) {
                    work.push(from);
                }
            }
        }
        return true;
    }

    private static boolean readsAny(Instr in, Set<Reg> t) {
        List<Reg> read = new ArrayList<>();
        for (Src s : in.srcs()) {
            Instr.addRegsRead(s, read);
        }
        for (Reg r : read) {
            if (tainted(r, t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean tainted(Reg r, Set<Reg> t) {
        for (Reg p : parts(r)) {
            if (t.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** The 32-bit parts of a register as instructions name them (a part, or each component of a tuple). */
    static List<Reg> parts(Reg r) {
        if (r.isZero() || r.isPart() || r.width() == 1) {
            return List.of(r);
        }
        List<Reg> out = new ArrayList<>(r.width());
        for (int i = 0; i < r.width(); i++) {
            out.add(r.component(i));
        }
        return out;
    }
}
