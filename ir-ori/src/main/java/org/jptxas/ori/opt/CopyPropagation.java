package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * Copy propagation. For {@code MOV a, b} where {@code a} is SSA-like, every read of {@code a} reads {@code b}
 * instead when {@code b} holds the same value there: {@code b} is SSA-like too (its one definition dominates the
 * move, which dominates every read of {@code a}), or all reads of {@code a} are in the move's block and {@code b}
 * is not rewritten before the last of them. A constant-bank source goes into the reads that take one. The move is
 * then dead and dead-code elimination removes it.
 */
public final class CopyPropagation implements Pass {
    private static final int LOOK_BACK = 64;

    @Override
    public String name() {
        return "copyprop";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr mov : new ArrayList<>(b.instrs())) {
                Src src = OpInfo.movSource(mov);
                if (src == null || src.hasModifiers() || !mov.guard().isAlways()) {
                    continue;
                }
                Reg a = mov.dsts().get(0);
                if (a.isPart()) {
                    changed |= propagatePart(b, mov, a, src, sd, cx);
                    continue;
                }
                if (sd.soleDef(a) != mov) {
                    continue;
                }
                if (src.value() instanceof Reg r) {
                    if (r.isPart() && r.virtual() && a.comps() == 1 && r.file() == a.file() && sd.stable(r.whole())) {
                        // one part of a stable tuple (an MMA's result copied out for stores)
                        for (Instr use : sd.uses(a)) {
                            changed |= Rewrites.replaceUses(use, a, r);
                        }
                        continue;
                    }
                    if (r.file() != a.file() || r.comps() != a.comps() || r.isPart()) {
                        continue;
                    }
                    if (r.isZero() || r.virtual() && (sd.stable(r) || stableInBlock(b, mov, a, r, sd))) {
                        for (Instr use : sd.uses(a)) {
                            changed |= Rewrites.replaceUses(use, a, r);
                        }
                    }
                } else if (src.value() instanceof Imm zero && zero.bits() == 0 && a.file() == RegFile.R
                        && a.comps() == 1) {
                    // a zero constant is the zero register (a store of 0 writes RZ, as ptxas's does)
                    for (Instr use : sd.uses(a)) {
                        changed |= Rewrites.replaceUses(use, a, Reg.RZ);
                    }
                } else if (src.value() instanceof CBank c && c.index() == null && cx.aluReadsConstantBank()) {
                    for (Instr use : sd.uses(a)) {
                        changed |= putConstant(use, a, src);
                    }
                }
            }
        }
        return changed;
    }

    /**
     * A tuple written part by part: {@code MOV a.i, b.i} for every part from one stable tuple {@code b} makes
     * {@code a} a copy of {@code b}; {@code MOV a.i, c[..]} puts the constant into the reads of {@code a.i}.
     */
    private static boolean propagatePart(BasicBlock b, Instr mov, Reg a, Src src, SingleDefs sd, OptContext cx) {
        Reg whole = a.whole();
        if (!sd.stable(whole)) {
            return false;
        }
        if (src.value() instanceof CBank c && c.index() == null) {
            if (!cx.aluReadsConstantBank()) {
                return false;
            }
            boolean changed = false;
            for (Instr use : sd.uses(whole)) {
                changed |= putConstant(use, a, src);
            }
            return changed;
        }
        if (src.value() instanceof Reg x && !x.isPart() && x.virtual() && x.comps() == 1) {
            Src part = partHeldAt(b, mov, x, sd);
            if (part == null) {
                // only when this copy is the tuple's one write: a tuple whose other half stays keeps its pair
                // of registers, and x would then live beside it
                return x.file() == a.file() && sd.stable(x) && sd.defs(whole).size() == 1 && readPartOnly(whole, sd)
                        && renamePartReads(whole, a, x, sd);
            }
            mov.srcs().set(0, part);
            return true;
        }
        if (src.value() instanceof Reg u && u.isPart() && u.virtual() && u.file() == a.file() && sd.stable(u.whole())) {
            Src constant = constantOfPart(u, sd);
            if (constant != null) {
                // a constant built into one tuple and copied into another (function addresses stored as a
                // vector): the copy writes the constant itself, and the first tuple dies
                mov.srcs().set(0, constant);
                return true;
            }
        }
        if (src.value() instanceof Reg z && z.isZero() && z.file() == a.file()) {
            return replacePartReads(whole, a, z, true, sd);
        }
        if (!(src.value() instanceof Reg r) || !r.isPart() || r.file() != a.file() || !sd.stable(r.whole())) {
            return false;
        }
        if (!copiesTuple(whole, r, sd)) {
            // a part of one tuple copied into a part of another whose other part is something else (the low word
            // of a 64-bit value masked to 32 bits): the reads of that part read the first tuple's, when nothing
            // reads the tuple whole (an MMA fragment assembled from parts keeps its copies: renaming its other
            // reads would keep both tuples live)
            return readPartOnly(whole, sd) && replacePartReads(whole, a, r, false, sd);
        }
        if (a.part() != 0) {
            return false;
        }
        boolean changed = false;
        for (Instr use : new ArrayList<>(sd.uses(whole))) {
            changed |= Rewrites.replaceUses(use, whole, r.whole());
        }
        return changed;
    }

    /** True when every part of {@code whole} is written by a plain copy of the same part of stable tuple {@code r}. */
    private static boolean copiesTuple(Reg whole, Reg r, SingleDefs sd) {
        List<Instr> defs = sd.defs(whole);
        if (r.comps() != whole.comps() || defs.size() != whole.comps()) {
            return false;
        }
        for (Instr d : defs) {
            Src s = OpInfo.movSource(d);
            if (s == null || s.hasModifiers() || !(s.value() instanceof Reg x) || !x.isPart()
                    || !x.sameRegister(r) || x.part() != d.dsts().get(0).part()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The sources that read part {@code a} of a stable tuple read {@code to} instead (RZ only where the source has no
     * modifier); reads of the whole tuple and address or index reads keep the part, and with them its move.
     */
    private static boolean replacePartReads(Reg whole, Reg a, Reg to, boolean zero, SingleDefs sd) {
        boolean changed = false;
        for (Instr use : sd.uses(whole)) {
            List<Src> srcs = use.srcs();
            for (int i = 0; i < srcs.size(); i++) {
                Src s = srcs.get(i);
                if (s.value() instanceof Reg r && r.equals(a) && !(zero && s.hasModifiers())) {
                    srcs.set(i, new Src(to, s.neg(), s.abs(), s.not()));
                    changed = true;
                }
            }
        }
        return changed;
    }

    /** True when no instruction reads {@code whole} as one value, only its 32-bit parts (so {@code a} alone may go). */
    private static boolean readPartOnly(Reg whole, SingleDefs sd) {
        for (Instr use : sd.uses(whole)) {
            for (Reg r : use.usedRegs()) {
                if (r.sameRegister(whole) && !r.isPart()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Every read of the part {@code a} reads the stable 32-bit {@code x} it was copied from (a sign-extended value
     * whose high half went into LEA.HI.X.SX32 keeps only this copy of its low half).
     */
    private static boolean renamePartReads(Reg whole, Reg a, Reg x, SingleDefs sd) {
        boolean changed = false;
        for (Instr use : sd.uses(whole)) {
            changed |= Rewrites.renameUses(use, r -> r.equals(a) ? x : null);
        }
        return changed;
    }

    /**
     * The part of a stable tuple that scalar {@code x} holds at {@code mov}, when its last write before it in the
     * block is a plain copy of that part ({@code MOV x, u.k}), else null. A fragment copied out of one MMA's result
     * and back into the next one's accumulator then reads the result's part, and the part-by-part rule above makes
     * the accumulator the result itself.
     */
    private static Src partHeldAt(BasicBlock b, Instr mov, Reg x, SingleDefs sd) {
        List<Instr> instrs = b.instrs();
        SingleDefs.Position at = sd.position(mov);
        int index = at != null && at.index() < instrs.size() && instrs.get(at.index()) == mov ? at.index()
                : instrs.indexOf(mov);
        // the copies sit next to each other; a bounded look back keeps huge blocks linear
        for (int i = index - 1; i >= Math.max(0, index - LOOK_BACK); i--) {
            Instr in = instrs.get(i);
            if (!Rewrites.writes(in, x)) {
                continue;
            }
            Src s = OpInfo.movSource(in);
            if (s == null || s.hasModifiers() || !in.guard().isAlways() || !(s.value() instanceof Reg u)
                    || !u.isPart() || u.file() != x.file() || !sd.stable(u.whole())) {
                return null;
            }
            return s;
        }
        return null;
    }

    /** The immediate or symbol that part {@code u} of a stable tuple is written with by a plain move, or null. */
    private static Src constantOfPart(Reg u, SingleDefs sd) {
        for (Instr d : sd.defs(u.whole())) {
            if (d.dsts().size() == 1 && d.dsts().get(0).equals(u)) {
                Src s = OpInfo.movSource(d);
                return s != null && !s.hasModifiers() && (s.value() instanceof Imm || s.value() instanceof Sym)
                        ? s : null;
            }
        }
        return null;
    }

    /** All reads of {@code a} follow {@code mov} in block {@code b}, with no write of {@code r} in between. */
    private static boolean stableInBlock(BasicBlock b, Instr mov, Reg a, Reg r, SingleDefs sd) {
        List<Instr> uses = sd.uses(a);
        int last = -1;
        int at = sd.position(mov).index();
        for (Instr u : uses) {
            SingleDefs.Position p = sd.position(u);
            if (p.block() != b.id() || p.index() <= at) {
                return false;
            }
            last = Math.max(last, p.index());
        }
        List<Instr> instrs = b.instrs();
        for (int i = at + 1; i < last; i++) {
            if (Rewrites.writes(instrs.get(i), r)) {
                return false;
            }
        }
        // The last reader itself may write r: it reads before it writes.
        return true;
    }

    /** Replaces a read of {@code a} by a constant-bank operand where the instruction's operand form allows it. */
    private static boolean putConstant(Instr use, Reg a, Src constant) {
        // LOP3's truth table (its fourth source) is a field of its own, not the shared immediate/constant one
        boolean lut = OpInfo.is(use, "LOP3") && use.srcs().size() > 3 && use.srcs().get(3).value() instanceof Imm;
        if (OpInfo.nonRegisterCount(use) > (lut ? 1 : 0)) {
            return false;
        }
        List<Src> srcs = use.srcs();
        for (int slot : OpInfo.nonRegisterSlots(use)) {
            if (slot < srcs.size() && srcs.get(slot).value() instanceof Reg r && r.equals(a)) {
                Src old = srcs.get(slot);
                if (old.hasModifiers() && !(old.neg() && !old.not() && !old.abs() && OpInfo.is(use, "IADD3"))) {
                    return false;
                }
                srcs.set(slot, new Src(constant.value(), old.neg(), false, false));
                return true;
            }
        }
        // A commutative form can bring the read into the slot.
        String op = use.op().name();
        if (srcs.size() >= 3 && (op.equals("IADD3") || op.equals("IMAD") || op.equals("IMNMX"))
                && srcs.get(0).value() instanceof Reg r && r.equals(a) && !OpInfo.isRZ(srcs.get(1))
                && !srcs.get(0).hasModifiers()) {
            Src old = srcs.get(0);
            srcs.set(0, srcs.get(1));
            srcs.set(1, new Src(constant.value(), old.neg(), false, false));
            return true;
        }
        return false;
    }
}
