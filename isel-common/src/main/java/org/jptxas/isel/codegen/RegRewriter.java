package org.jptxas.isel.codegen;

import java.util.List;
import java.util.function.UnaryOperator;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** Replaces every register an instruction names (destinations, sources, address bases, c-bank indices, guard). */
public final class RegRewriter {
    private RegRewriter() {}

    public static void rewrite(Instr in, UnaryOperator<Reg> map) {
        List<Reg> dsts = in.dsts();
        for (int i = 0; i < dsts.size(); i++) {
            dsts.set(i, map.apply(dsts.get(i)));
        }
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            Operand v = rewrite(s.value(), map);
            if (v != s.value()) {
                srcs.set(i, new Src(v, s.neg(), s.abs(), s.not()));
            }
        }
        if (!in.guard().isAlways()) {
            in.setGuard(new Guard(map.apply(in.guard().predicate()), in.guard().negated()));
        }
    }

    static Operand rewrite(Operand v, UnaryOperator<Reg> map) {
        if (v instanceof Reg r) {
            return map.apply(r);
        }
        if (v instanceof Addr a) {
            return new Addr(map.apply(a.base()), a.uniformBase() == null ? null : map.apply(a.uniformBase()), a.offset());
        }
        if (v instanceof CBank c && c.index() != null) {
            return new CBank(c.bank(), c.offset(), map.apply(c.index()));
        }
        return v;
    }
}
