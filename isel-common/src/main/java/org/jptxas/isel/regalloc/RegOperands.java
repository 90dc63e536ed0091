package org.jptxas.isel.regalloc;

import java.util.List;
import java.util.function.UnaryOperator;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** The register slots of an instruction, read and rewritten in one place: destinations, sources, indices, guard. */
final class RegOperands {
    private RegOperands() {}

    /** Rewrites every register an instruction reads (sources, constant-bank index, address bases, guard). */
    static void mapUses(Instr in, UnaryOperator<Reg> f) {
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            Object v = s.value();
            if (v instanceof Reg r) {
                Reg m = f.apply(r);
                if (m != r) {
                    srcs.set(i, new Src(m, s.neg(), s.abs(), s.not()));
                }
            } else if (v instanceof CBank c && c.index() != null) {
                Reg m = f.apply(c.index());
                if (m != c.index()) {
                    srcs.set(i, new Src(new CBank(c.bank(), c.offset(), m), s.neg(), s.abs(), s.not()));
                }
            } else if (v instanceof Addr a) {
                Reg base = f.apply(a.base());
                Reg ub = a.uniformBase() == null ? null : f.apply(a.uniformBase());
                if (base != a.base() || ub != a.uniformBase()) {
                    srcs.set(i, new Src(new Addr(base, ub, a.offset()), s.neg(), s.abs(), s.not()));
                }
            }
        }
        Guard g = in.guard();
        if (!g.isAlways()) {
            Reg m = f.apply(g.predicate());
            if (m != g.predicate()) {
                in.setGuard(new Guard(m, g.negated()));
            }
        }
    }

    /** Rewrites every register an instruction writes. */
    static void mapDefs(Instr in, UnaryOperator<Reg> f) {
        List<Reg> dsts = in.dsts();
        for (int i = 0; i < dsts.size(); i++) {
            dsts.set(i, f.apply(dsts.get(i)));
        }
    }

    /**
     * The source register of a plain copy ({@code MOV d, s}, {@code MOV d, s, 0xf}, {@code UMOV d, s},
     * {@code IMAD.MOV.U32 d, RZ, RZ, s}) between whole registers of the same file and size; else null.
     */
    static Reg copySource(Instr in) {
        if (in.dsts().size() != 1) {
            return null;
        }
        Reg d = in.dsts().get(0);
        List<Src> srcs = in.srcs();
        Src s;
        switch (in.op().name()) {
            case "MOV", "UMOV" -> {
                if (!in.mods().isEmpty() || srcs.isEmpty() || srcs.size() > 2) {
                    return null;
                }
                if (srcs.size() == 2 && !(srcs.get(1).value() instanceof Imm m && (m.bits() & 0xf) == 0xf)) {
                    return null;
                }
                s = srcs.get(0);
            }
            case "IMAD" -> {
                if (!in.mods().contains("MOV") || srcs.size() != 3 || !isZero(srcs.get(0)) || !isZero(srcs.get(1))) {
                    return null;
                }
                s = srcs.get(2);
            }
            default -> {
                return null;
            }
        }
        if (s.hasModifiers() || !(s.value() instanceof Reg r) || r.isZero() || r.file() != d.file()
                || r.isPart() || d.isPart() || r.comps() != d.comps()) {
            return null;
        }
        return r;
    }

    private static boolean isZero(Src s) {
        return !s.hasModifiers() && s.value() instanceof Reg r && r.isZero();
    }
}
