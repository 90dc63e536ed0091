package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * A zero-filling asynchronous copy whose source size is all or nothing ({@code selp.b32 n, 16, 0, p} then
 * {@code cp.async [s], [g], 16, n}) needs no fill count: the lowering's {@code LDGSTS.ZFILL [s], [g + ((16 - n) & 15)],
 * n != 0} adds 0 either way, and its read predicate is the selection's condition. The copy becomes
 * {@code LDGSTS [s], [g], p} (or {@code !p}), as ptxas writes it; the address arithmetic and the compare die.
 *
 * <p>Sound because every register involved holds one value wherever it is read ({@link SingleDefs#stable}): the
 * size's selection dominates the copy, the condition's one write dominates the selection, so no write of the
 * condition can come between the selection and the copy without the selection running again.
 */
public final class PredicatedZeroFill implements Pass {
    @Override
    public String name() {
        return "predicated-zero-fill";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!OpInfo.is(in, "LDGSTS") || !in.hasMod("ZFILL") || in.srcs().size() != 3
                        || !in.guard().isAlways()) {
                    continue;
                }
                if (sd == null) {
                    sd = cx.singleDefs(body);
                }
                Instr rewritten = rewrite(in, sd);
                if (rewritten != null && cx.canEncode(rewritten).orElse(false)) {
                    in.setMods(rewritten.mods());
                    in.srcs().clear();
                    in.srcs().addAll(rewritten.srcs());
                    changed = true;
                }
            }
        }
        return changed;
    }

    /** The predicated plain copy {@code in} amounts to, or null when its source size is not all or nothing. */
    private static Instr rewrite(Instr in, SingleDefs sd) {
        int size = in.hasMod("128") ? 16 : in.hasMod("64") ? 8 : 4;
        if (!(in.srcs().get(1).value() instanceof Addr filled) || filled.uniformBase() != null
                || !(in.srcs().get(2).value() instanceof Reg any) || in.srcs().get(2).hasModifiers()) {
            return null;
        }
        Instr compare = sd.soleDef(any);
        if (compare == null || !OpInfo.is(compare, "ISETP") || !compare.mods().equals(List.of("NE", "U32", "AND"))
                || compare.dsts().size() != 2 || !compare.dsts().get(1).equals(Reg.PT) || compare.srcs().size() != 3
                || !OpInfo.isRZ(compare.srcs().get(1)) || !Boolean.TRUE.equals(OpInfo.constPred(compare.srcs().get(2)))
                || !(compare.srcs().get(0).value() instanceof Reg n) || compare.srcs().get(0).hasModifiers()) {
            return null;
        }
        Src read = readPredicate(sd, n, size);
        Reg base = unfilledBase(sd, filled.base(), n, size);
        if (read == null || base == null) {
            return null;
        }
        List<String> mods = new ArrayList<>(in.mods());
        mods.remove("ZFILL");
        return new Instr(in.op(), mods, List.of(), List.of(in.srcs().get(0), Src.of(Addr.of(base, filled.offset())), read),
                in.guard(), in.line());
    }

    /** For {@code n = SEL size|0, 0|size, p} with a stable {@code p}: the predicate {@code n != 0}, else null. */
    private static Src readPredicate(SingleDefs sd, Reg n, int size) {
        Instr sel = sd.soleDef(n);
        if (sel == null || !OpInfo.is(sel, "SEL") || sel.srcs().size() != 3 || !sel.mods().isEmpty()) {
            return null;
        }
        Long a = constant(sd, sel.srcs().get(0));
        Long b = constant(sd, sel.srcs().get(1));
        Src p = sel.srcs().get(2);
        if (a == null || b == null || !(p.value() instanceof Reg pr) || !pr.file().isPredicate() || p.neg() || p.abs()
                || !pr.isZero() && !sd.stable(pr)) {
            return null;
        }
        if (a == size && b == 0) {
            return p;
        }
        if (a == 0 && b == size) {
            return p.inverted();
        }
        return null;
    }

    /** A 32-bit constant: an immediate, RZ, or a stable register moved from one. */
    private static Long constant(SingleDefs sd, Src s) {
        Long v = OpInfo.const32(s);
        if (v != null || !(s.value() instanceof Reg r) || s.hasModifiers()) {
            return v;
        }
        Instr def = sd.soleDef(r);
        return def != null && OpInfo.is(def, "MOV") && def.srcs().size() == 1 ? OpInfo.const32(def.srcs().get(0)) : null;
    }

    /**
     * The stable 64-bit {@code g} of {@code sum.lo = IADD3 g.lo, fill(n), RZ} with carry into
     * {@code sum.hi = IADD3.X g.hi, RZ, RZ, carry, !PT}, or null.
     */
    private static Reg unfilledBase(SingleDefs sd, Reg sum, Reg n, int size) {
        if (sum.isPart() || sum.comps() != 2 || !sd.stable(sum)) {
            return null;
        }
        Instr lo = null;
        Instr hi = null;
        for (Instr d : sd.defs(sum)) {
            if (d.dsts().isEmpty() || !d.dsts().get(0).isPart()) {
                return null;
            }
            if (d.dsts().get(0).part() == 0) {
                lo = d;
            } else {
                hi = d;
            }
        }
        if (lo == null || lo.srcs().size() != 3) {
            return null;
        }
        int fillSlot = isFill(sd, lo.srcs().get(1), n, size) ? 1 : isFill(sd, lo.srcs().get(0), n, size) ? 0 : -1;
        if (fillSlot < 0 || !(lo.srcs().get(1 - fillSlot).value() instanceof Reg glo)
                || lo.srcs().get(1 - fillSlot).hasModifiers()) {
            return null;
        }
        if (hi == null || !OpInfo.is(lo, "IADD3") || !lo.mods().isEmpty() || lo.dsts().size() != 3
                || !OpInfo.is(hi, "IADD3") || !hi.mods().equals(List.of("X")) || hi.srcs().size() != 5
                || !OpInfo.isRZ(lo.srcs().get(2)) || !(hi.srcs().get(0).value() instanceof Reg ghi)
                || hi.srcs().get(0).hasModifiers() || !OpInfo.isRZ(hi.srcs().get(1)) || !OpInfo.isRZ(hi.srcs().get(2))
                || !(hi.srcs().get(3).value() instanceof Reg carry) || hi.srcs().get(3).hasModifiers()
                || !carry.sameRegister(lo.dsts().get(1)) || !Boolean.FALSE.equals(OpInfo.constPred(hi.srcs().get(4)))
                || !glo.isPart() || glo.part() != 0 || !ghi.isPart() || ghi.part() != 1
                || !glo.sameRegister(ghi) || glo.whole().comps() != 2 || !sd.stable(glo.whole())) {
            return null;
        }
        return glo.whole();
    }

    /** Whether {@code s} is the lowering's fill count {@code (size - n) & (size - 1)}. */
    private static boolean isFill(SingleDefs sd, Src s, Reg n, int size) {
        if (!(s.value() instanceof Reg f) || s.hasModifiers()) {
            return false;
        }
        Instr and = sd.soleDef(f);
        if (and == null || !OpInfo.is(and, "LOP3") || and.srcs().size() != 5 || OpInfo.imm(and.srcs().get(3)) == null
                || OpInfo.imm(and.srcs().get(3)) != 0xc0 || !Long.valueOf(size - 1).equals(OpInfo.const32(and.srcs().get(1)))
                || !OpInfo.isRZ(and.srcs().get(2)) || !(and.srcs().get(0).value() instanceof Reg t)
                || and.srcs().get(0).hasModifiers()) {
            return false;
        }
        Instr sub = sd.soleDef(t);
        return sub != null && OpInfo.is(sub, "IADD3") && sub.mods().isEmpty() && sub.srcs().size() == 3
                && sub.srcs().get(0).value() instanceof Reg m && m.sameRegister(n) && sub.srcs().get(0).neg()
                && !sub.srcs().get(0).abs() && !sub.srcs().get(0).not()
                && Long.valueOf(size).equals(OpInfo.const32(sub.srcs().get(1))) && OpInfo.isRZ(sub.srcs().get(2));
    }
}
